"""Batch front end of tests/ref/ref_scaling.py for the browser tests: reads a JSON list of
{"config": {...}, "seq_len": s, "train_len": L, "gap": G} on stdin and writes, for each,
the reference's figures (or {"error": "..."}) as a JSON list on stdout."""
import json
import sys

import ref_scaling


def one(call):
    try:
        r = ref_scaling.resolve(call["config"], float(call.get("seq_len") or 0.0))
        return ref_scaling.figures(r, call.get("train_len"), call.get("gap"))
    except (ref_scaling.RefError, KeyError, TypeError, ValueError, ZeroDivisionError) as err:
        return {"error": str(err)}


def main():
    calls = json.load(sys.stdin)
    json.dump([one(call) for call in calls], sys.stdout)


if __name__ == "__main__":
    main()
