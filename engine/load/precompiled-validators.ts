/**
 * Pack validators compiled ahead of time, by name, or undefined to compile them at load. Here, in
 * the sources, there are none; the build (scripts/build.js) puts Ajv's standalone code for the same
 * schemas in this module's place, so a built service does not compile schemas on every boot.
 */
export const PRECOMPILED_VALIDATORS: Record<string, (value: unknown) => boolean> | undefined = undefined;
