"""The package's types, as maturin lays them out: ``batchdoku/__init__.py`` is typed Python (Status, the result
types, ``to_strings``) and re-exports the native module, whose types are in ``batchdoku/_batchdoku.pyi`` only.
Checks that each name is declared once, that ``mypy --strict`` passes on the package, and that the stub matches
the built module (mypy's ``stubtest``: names, parameters, defaults)."""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import batchdoku

PACKAGE = Path(__file__).resolve().parents[1] / "batchdoku"
CONFIG = PACKAGE.parent / "pyproject.toml"


def declared(path):
    """The names a module declares at its top level (classes, functions, assignments), private ones included."""
    names = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return names


def test_each_name_is_declared_once():
    assert not (PACKAGE / "__init__.pyi").exists(), "__init__.py is typed: a stub beside it would hide it"
    package = declared(PACKAGE / "__init__.py")
    native = declared(PACKAGE / "_batchdoku.pyi")
    assert len(set(package)) == len(package) and len(set(native)) == len(native)
    assert set(package) & set(native) == {"__all__"}  # each module's own list
    # What the package exports is declared in one of the two, or is the native module's, re-exported.
    for name in batchdoku.__all__:
        assert (name in package) != (name in native), name
        if name in native:
            assert getattr(batchdoku, name) is getattr(batchdoku._batchdoku, name), name


def mypy(*args, cwd, env=None):
    pytest.importorskip("mypy")
    run = [sys.executable, "-m", *args]
    return subprocess.run(run, capture_output=True, text=True, check=False, cwd=cwd, env=env)


def test_the_package_passes_mypy_strict(tmp_path):
    args = ["--strict", "--config-file", str(CONFIG), "--cache-dir", str(tmp_path / "cache"), str(PACKAGE)]
    out = mypy("mypy", *args, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_stub_matches_the_native_module(tmp_path):
    # The stub of this tree (MYPYPATH) against the installed module (the wheel built from it).
    env = {**os.environ, "MYPYPATH": str(PACKAGE.parent)}
    out = mypy("mypy.stubtest", "batchdoku._batchdoku", "--mypy-config-file", str(CONFIG), cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stdout + out.stderr
