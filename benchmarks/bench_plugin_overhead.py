"""The pytest plugin's start-up cost on a project that does not use it.

Run: python benchmarks/bench_plugin_overhead.py [--repeat 15]

A scratch project with one trivial test is run with ``python -m pytest`` with the plugin (it loads
automatically once dpcert is installed) and with ``-p no:dpcert``, alternately, ``--repeat`` times each;
prints the medians and their difference (target: under 0.1 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _seconds(project: Path, extra: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra], cwd=project,
                   capture_output=True, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each variant (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        (project / "test_trivial.py").write_text("def test_trivial():\n    assert True\n")
        with_plugin, without = [], []
        for _ in range(args.repeat):
            with_plugin.append(_seconds(project, []))
            without.append(_seconds(project, ["-p", "no:dpcert"]))
    a, b = statistics.median(with_plugin), statistics.median(without)
    print(json.dumps({"with_plugin_s": round(a, 3), "without_plugin_s": round(b, 3), "overhead_s": round(a - b, 3)}))


if __name__ == "__main__":
    main()
