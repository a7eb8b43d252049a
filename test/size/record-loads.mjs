// Preloaded by test/size.test.ts (`node --import`) into the program it measures: registers
// load-hooks.mjs, which records each module Node loads from the folder the program was built into.
// SIZE_BUILD is that folder's file: URL; SIZE_LOADS is the file the hooks append the URLs to.
import { register } from "node:module";

register("./load-hooks.mjs", import.meta.url, {
  data: { build: process.env.SIZE_BUILD, loads: process.env.SIZE_LOADS },
});
