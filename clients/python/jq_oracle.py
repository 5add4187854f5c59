"""Oracle for mcp-envelope's differential jq test: evaluates many jq programs with libjq (the `jq` package on PyPI).

Usage: jq_oracle.py INPUTS CASES OUT
  INPUTS: a JSON array of input documents.
  CASES:  JSON lines, each {"program": "...", "input": <index into INPUTS>}.
  OUT:    JSON lines, one per case, in order: {"ok": [outputs...]} or {"error": "message"}.
Each program runs as `[PROGRAM]`, so every output is collected. One process evaluates every case.
"""
import json
import sys

import jq


def main() -> None:
    inputs_path, cases_path, out_path = sys.argv[1:4]
    with open(inputs_path, encoding="utf-8") as f:
        inputs = json.load(f)
    with open(cases_path, encoding="utf-8") as f, open(out_path, "w", encoding="utf-8") as out:
        for line in f:
            case = json.loads(line)
            try:
                value = jq.compile("[" + case["program"] + "\n]").input_value(inputs[case["input"]]).first()
                result = {"ok": value}
            except Exception as e:  # libjq compile and runtime errors are both ValueError
                result = {"error": str(e)}
            out.write(json.dumps(result, allow_nan=False) + "\n")


if __name__ == "__main__":
    main()
