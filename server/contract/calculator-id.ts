/** What a calculator id looks like: the path parameter's pattern, and the test for echoing an id back. */
export const CALCULATOR_ID_PATTERN_SOURCE = '^[a-z0-9.-]{1,64}$';
