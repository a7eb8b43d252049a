import type { Access } from "../auth/access.js";
import { checkCompleters } from "../completion/completers.js";
import type { Completer } from "../completion/completion.js";
import { resourceProblem } from "../content/check.js";
import { type Annotations, checkIcons, checkOptions, type Icon, type ResourceContents } from "../core/content.js";
import type { Context } from "../core/handler-context.js";
import type { QueryVariables, TemplateVariables } from "./uri-template.js";
import { isTemplate, parseTemplate, type TemplateSyntax } from "./uri-template-syntax.js";

type MaybePromise<T> = T | Promise<T>;

/** What `read` may return: text, bytes (sent as base64), one contents item, or several. */
export type ResourceReturn = string | Uint8Array | ResourceContents | ResourceContents[];

/** Metadata of a concrete resource, as `resources/list` shows it (2025-11-25 "Resource"). */
export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes of the raw contents, before base64. */
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** The arguments of `read`: the requested URI, and each template variable decoded (query ones may be absent). */
export type ResourceArgs<Uri extends string> = { uri: string } & {
  [K in Exclude<TemplateVariables<Uri>, QueryVariables<Uri>>]: string;
} & { [K in QueryVariables<Uri>]?: string };

/** A registration's metadata is a list entry's, but for the URI it is registered at; `name` defaults to that URI. */
export interface ResourceConfig<Uri extends string> extends Omit<ResourceInfo, "uri" | "name"> {
  name?: string;
  /** What the caller needs to read it (see `ToolConfig.auth`); `allow` gets the URI and template variables. */
  auth?: Access<ResourceArgs<Uri>>;
  /**
   * Reads the contents; for a template, gets its variables. Returns undefined when the URI names
   * nothing (a template's id that does not exist): the client then gets the era's not-found error.
   */
  read: (args: ResourceArgs<Uri>, ctx: Context) => MaybePromise<ResourceReturn | undefined>;
  /**
   * Templates only: the concrete resources to show in `resources/list`. Runs only for a caller that
   * `auth` admits (token, scopes, roles; `allow` is for reads): list what `ctx.auth` may read.
   */
  list?: (ctx: Context) => MaybePromise<Omit<ResourceInfo, "mimeType">[] | ResourceInfo[]>;
  /** Templates only: completion of each variable for `completion/complete`. */
  complete?: Partial<Record<TemplateVariables<Uri>, Completer>>;
}

/** A registered resource or resource template, its list entry built once. */
export interface Resource {
  readonly uri: string;
  readonly descriptor: Record<string, unknown>;
  /** A template's syntax, checked at registration (matching URIs is compiled on the first read). */
  readonly template: TemplateSyntax | undefined;
  readonly mimeType: string | undefined;
  readonly config: ResourceConfig<string>;
}

/**
 * What a resource's config may hold (ResourceConfig), each key once; and `uri`, as a list entry
 * spread into it has, when it is the URI the resource is registered at.
 */
const RESOURCE_OPTIONS: Record<keyof ResourceConfig<string> | "uri", 0> = {
  uri: 0,
  name: 0,
  title: 0,
  description: 0,
  mimeType: 0,
  size: 0,
  annotations: 0,
  icons: 0,
  _meta: 0,
  auth: 0,
  read: 0,
  list: 0,
  complete: 0,
};

export function compileResource(uri: string, config: ResourceConfig<string>): Resource {
  if (typeof uri !== "string" || uri.length === 0) throw new TypeError("A resource needs a non-empty URI.");
  if (typeof config?.read !== "function") throw new TypeError(`Resource "${uri}" needs a read function.`);
  checkOptions(config, RESOURCE_OPTIONS, `Resource "${uri}"`);
  if ("uri" in config && config.uri !== uri) {
    throw new TypeError(
      `Resource "${uri}" has uri ${JSON.stringify(config.uri)} in its config; it is registered at the URI given to resource(), so leave uri out or make the two the same.`,
    );
  }
  checkIcons(config.icons, `Resource "${uri}"`);
  const template = isTemplate(uri) ? parseTemplate(uri) : undefined;
  // `read` gets the URI as `uri`, beside the variables: a variable of that name would never reach it.
  if (template?.variables.includes("uri")) {
    throw new TypeError(
      `Resource template "${uri}" has a variable named "uri", which read gets as the whole URI; rename the variable.`,
    );
  }
  if (!template && (config.list || config.complete)) {
    throw new TypeError(`Resource "${uri}" has no template variables, so it cannot have list or complete.`);
  }
  // A ResourceTemplate has no size (2025-11-25 "Resource Templates"): each resource it names has its own.
  if (template && config.size !== undefined) {
    throw new TypeError(
      `Resource template "${uri}" cannot have size: each resource it names has its own; give it in list's entries.`,
    );
  }
  if (config.list !== undefined && typeof config.list !== "function") {
    throw new TypeError(
      `Resource template "${uri}" list must be a function (ctx) => resources; it is a value of type ${typeof config.list}.`,
    );
  }
  if (template) {
    const owner = `Resource template "${uri}"`;
    checkCompleters(config.complete, { owner, names: template.variables, kind: "variables" });
  }
  const descriptor: Record<string, unknown> = template ? { uriTemplate: uri } : { uri };
  descriptor.name = config.name ?? uri;
  for (const key of ["title", "description", "mimeType", "size", "annotations", "icons", "_meta"] as const) {
    if (config[key] !== undefined) descriptor[key] = config[key];
  }
  // TypeScript takes a priority of 2 or a lastModified of "yesterday", but the official clients then
  // refuse the whole of resources/list or resources/templates/list: the entry is checked as they read it.
  const problem = resourceProblem({ uri, ...descriptor });
  if (problem !== undefined) throw new TypeError(`${template ? "Resource template" : "Resource"} "${uri}" ${problem}.`);
  return { uri, descriptor, template, mimeType: config.mimeType, config };
}

declare module "../core/registry.js" {
  interface Registrations {
    resource: Resource;
  }
}
