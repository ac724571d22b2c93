"""The repository's scripts (``scripts/*.py``, not a package) loaded as modules for tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load_script(name: str, module: str | None = None) -> ModuleType:
    """Return ``scripts/<name>.py`` loaded as the module ``module`` (default: ``name``)."""
    spec = importlib.util.spec_from_file_location(module or name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded
    spec.loader.exec_module(loaded)
    return loaded
