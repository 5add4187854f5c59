"""Oracle for mcp-envelope's differential jq test: evaluates many jq programs with libjq (the `jq` package on PyPI).

Usage: jq_oracle.py [--text] INPUTS CASES OUT
  INPUTS: a JSON array of input documents (with --text: of JSON texts, which libjq parses itself, so `-0` and
          every digit reach it as written).
  CASES:  JSON lines, each {"program": "...", "input": <index into INPUTS>}.
  OUT:    JSON lines, one per case, in order: {"ok": [outputs...]} or {"error": "message"}.
Each program runs as `[PROGRAM]`, so every output is collected; with --text as `[PROGRAM] | tojson`, and "ok" holds
that JSON text (libjq's own printing: `-0`, literal digits; Python's numbers never touch it). One process evaluates
every case.
"""
import json
import sys

import jq


def main() -> None:
    args = sys.argv[1:]
    text = args[0] == "--text"
    inputs_path, cases_path, out_path = args[1:4] if text else args[0:3]
    with open(inputs_path, encoding="utf-8") as f:
        inputs = json.load(f)
    with open(cases_path, encoding="utf-8") as f, open(out_path, "w", encoding="utf-8") as out:
        for line in f:
            case = json.loads(line)
            try:
                if text:
                    program = jq.compile("[" + case["program"] + "\n] | tojson")
                    value = program.input_text(inputs[case["input"]]).first()
                else:
                    value = jq.compile("[" + case["program"] + "\n]").input_value(inputs[case["input"]]).first()
                result = {"ok": value}
            except Exception as e:  # libjq compile and runtime errors are both ValueError
                result = {"error": str(e)}
            out.write(json.dumps(result, allow_nan=False) + "\n")


if __name__ == "__main__":
    main()
