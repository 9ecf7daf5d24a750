"""`make lock`: pip's installation report as deploy/requirements-lambda.txt (pins, hashes)."""

from __future__ import annotations

import json
import sys

HEADER = """\
# The Lambda package's dependencies, locked for the template's runtime: CPython 3.12 on arm64
# (manylinux2014_aarch64). None today; botocore (off Lambda only) comes with the runtime.
# Regenerate after changing requirements.txt: make lock
"""


def main(report_path: str, lock_path: str) -> None:
    with open(report_path) as f:
        report = json.load(f)
    lines = [HEADER]
    for item in sorted(report["install"], key=lambda i: i["metadata"]["name"].lower()):
        meta, sha = item["metadata"], item["download_info"]["archive_info"]["hashes"]["sha256"]
        lines.append(f"{meta['name']}=={meta['version']} \\\n    --hash=sha256:{sha}")
    with open(lock_path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
