"""Compile the engines' hot modules with mypyc, beside their sources (issue 16).

``make run`` and ``make test`` run it; it does nothing when the extensions are up to date.
The modules are listed in ``src/machiavel/speedups.py``, which also explains how machiavel
falls back to pure Python (``MACHIAVEL_PURE_PYTHON=1``, or a source changed since). Needs a
C compiler and Python's headers (Debian: ``gcc``, ``python3-dev``); without them it says
so and machiavel runs pure Python, only slower.

    .venv/bin/python scripts/compile_engines.py            # compile what is out of date
    .venv/bin/python scripts/compile_engines.py --clean    # remove the extensions
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src"
BUILD = ROOT / "build" / "mypyc"  # generated C and objects, kept for faster rebuilds
GROUP = "machiavel_engines"  # the shared library of the build: GROUP__mypyc.*.so


def speedups() -> ModuleType:
    """``machiavel/speedups.py`` read on its own: importing ``machiavel`` would load the
    very extensions this script is about to replace."""
    spec = importlib.util.spec_from_file_location(
        "compile_engines_speedups", SOURCES / "machiavel" / "speedups.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def remove_extensions(listing: ModuleType) -> None:
    """Unlink (never overwrite: a running process may have them mapped) the extensions."""
    listing.MANIFEST.unlink(missing_ok=True)
    for module in listing.COMPILED_MODULES:
        while (extension := listing.extension_of(module)) is not None:
            extension.unlink()
    for shared in SOURCES.glob(f"{GROUP}__mypyc*"):
        shared.unlink()


def compile_modules(listing: ModuleType) -> None:
    from mypyc.build import mypycify  # the test extra's mypy; only needed here
    from setuptools import setup

    paths = [
        str(listing.source_of(module).relative_to(ROOT)) for module in listing.COMPILED_MODULES
    ]
    extensions = mypycify(paths, opt_level="3", group_name=GROUP, target_dir=str(BUILD / "c"))
    setup(
        name="machiavel-engines",
        package_dir={"": "src"},
        ext_modules=extensions,  # type: ignore[arg-type]  # mypyc also names distutils
        script_args=["--quiet", "build_ext", "--inplace", "--build-temp", str(BUILD / "objects")],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled extensions")
    parser.add_argument("--strict", action="store_true", help="fail (exit 1) when compiling fails")
    args = parser.parse_args()
    listing = speedups()
    if args.clean:
        remove_extensions(listing)
        return 0
    if not listing.stale_modules():
        print("compiled engines: up to date")
        return 0
    hashes = {module: listing.source_hash(module) for module in listing.COMPILED_MODULES}
    remove_extensions(listing)
    print(f"compiling {len(hashes)} engine modules with mypyc (about a minute)...", flush=True)
    try:
        compile_modules(listing)
    except (Exception, SystemExit) as error:  # mypy's or the C compiler's complaint
        remove_extensions(listing)
        print(f"compiled engines: not built ({error}); machiavel runs pure Python", flush=True)
        return 1 if args.strict else 0
    listing.MANIFEST.write_text(json.dumps({"modules": hashes}, indent=2) + "\n")
    print("compiled engines: built")
    return 0


if __name__ == "__main__":
    sys.exit(main())
