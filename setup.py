"""The optional compiled build: ``CMS_COMPILE=1`` compiles the hot engine modules with Cython.

Everything else is in pyproject.toml. Without ``CMS_COMPILE=1`` (every ordinary install,
``pip install -e .`` included) nothing is compiled. With it, a *wheel* is built whose modules of
``engine.build.COMPILED_MODULES`` are extension modules made by Cython in pure-Python mode from
the unchanged sources and the ``.pxd`` declarations beside the hottest of them
(docs/performance.md, "The compiled build"):

    CMS_COMPILE=1 pip wheel --no-deps --no-build-isolation -w dist .

An editable install or an in-place build would leave compiled modules next to the sources,
where they would shadow any later edit of them, so both are refused.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _compiled_modules() -> list[str]:
    # engine/build.py imports nothing from the engine: load it alone, not the package
    spec = importlib.util.spec_from_file_location("_cms_build", HERE / "engine" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.COMPILED_MODULES)


_UNBOUND = {
    "engine.features",
    "engine.board.tiletables",
    "engine.board.state",
    "engine.board.preview",
    "engine.board.counting",
    "engine.board.placing",
}
"""Compiled with ``binding=False``: no function of theirs is introspected or pickled."""


def _extensions() -> list[object]:
    if os.environ.get("CMS_COMPILE") != "1":
        return []
    if any(a in ("editable_wheel", "develop", "--inplace", "-i") for a in sys.argv):
        raise SystemExit(
            "CMS_COMPILE=1: the compiled build is a wheel (pip wheel ...); an editable or "
            "in-place build would leave compiled modules that shadow the sources"
        )
    try:
        from Cython.Build import cythonize
    except ImportError:
        raise SystemExit(
            "CMS_COMPILE=1 needs Cython: pip install -e '.[compiled]' (or 'cython>=3.0')"
        ) from None
    directives = {
        "language_level": 3,
        # pure Python semantics: annotations are not C types (a ``float`` argument would
        # become a C double); the C types are in the ``.pxd`` files beside the hot modules
        "annotation_typing": False,
        "binding": True,
    }
    # modules whose classes are all extension types (their ``.pxd``): methods as plain method
    # descriptors, which CPython calls faster than Cython's function objects
    plain = {name for name in _compiled_modules() if name in _UNBOUND}
    extensions = []
    for group, binding in ((plain, False), (set(_compiled_modules()) - plain, True)):
        sources = [str(Path(*n.split(".")).with_suffix(".py")) for n in sorted(group)]
        extensions += cythonize(
            sources,
            build_dir="build/cython",  # the generated C stays out of the source tree
            compiler_directives={**directives, "binding": binding},
            quiet=True,
        )
    for ext in extensions:
        ext.extra_compile_args.append("-g0")  # no debug information (Python's CFLAGS ask for it)
    return list(extensions)


setup(ext_modules=_extensions())
