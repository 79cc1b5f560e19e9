// The page's JavaScript linter, run from the project root by `make lint`
// eslint's recommended rules, and the same sizes as the Python side's tests/test_code_shape.py:
// at most 500 lines a module and 60 a function, blank lines and comments counted too (both
// rules' skipBlankLines and skipComments left false), as that test counts the Python.
import js from "@eslint/js";
import globals from "globals";

const SIZES = {
  "max-lines": ["error", { max: 500, skipBlankLines: false, skipComments: false }],
  "max-lines-per-function": ["error", { max: 60, skipBlankLines: false, skipComments: false }],
};

export default [
  js.configs.recommended,
  {
    files: ["host_sim/web/static/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
    rules: SIZES,
  },
  {
    files: ["host_sim/web/static/boardworker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
];
