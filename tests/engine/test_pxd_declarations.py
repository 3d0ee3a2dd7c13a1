"""The ``.pxd`` files of the compiled build agree with the pure modules beside them.

A ``.pxd`` turns a class into an extension type whose attributes are only those it declares,
and gives some methods C signatures and typed locals. The pure module is the reference: an
attribute a method sets that the ``.pxd`` does not declare would fail only on the compiled build,
and a declared method, argument or local that the module no longer has would break the build.
These checks read both files (no compiler needed), so an edit of a hot module that the
declarations do not follow fails in the ordinary test run.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine import build

ROOT = Path(__file__).resolve().parents[2]
PXDS = sorted((ROOT / "engine").rglob("*.pxd"))


@dataclass
class PxdFunction:
    name: str
    args: list[str]
    locals: list[str]


@dataclass
class PxdClass:
    name: str
    base: str | None
    attrs: set[str] = field(default_factory=set)
    functions: list[PxdFunction] = field(default_factory=list)


def _statements(text: str) -> list[str]:
    """The ``.pxd``'s logical lines (comments dropped, bracketed continuations joined), each
    with its indentation."""
    out: list[str] = []
    depth = 0
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if depth:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
        depth += line.count("(") - line.count(")")
    return out


MODULE = "<module>"
"""The key of a ``.pxd``'s module-level ``cpdef`` functions in :func:`parse_pxd`."""


def parse_pxd(path: Path) -> dict[str, PxdClass]:
    """The ``cdef class`` es of a ``.pxd``: attributes, ``cpdef`` methods and their locals;
    its module-level ``cpdef`` functions under :data:`MODULE`."""
    classes: dict[str, PxdClass] = {}
    current: PxdClass | None = None
    pending: list[str] = []
    for line in _statements(path.read_text()):
        text = line.strip()
        if text == line and text.startswith(("@cython.locals(", "cpdef ")):
            # not indented: a module-level function
            current = classes.setdefault(MODULE, PxdClass(MODULE, None))
        if m := re.fullmatch(r"cdef class (\w+)(?:\((\w+)\))?:", text):
            current = classes[m[1]] = PxdClass(m[1], m[2])
        elif m := re.fullmatch(r"cdef (?:public |readonly )?[\w.]+ ([\w, ]+)", text):
            assert current is not None, f"{path.name}: {text!r} outside a class"
            current.attrs |= {a.strip() for a in m[1].split(",")}
        elif m := re.fullmatch(r"@cython\.locals\((.*)\)", text):
            pending = re.findall(r"(\w+)\s*=", m[1])
        elif m := re.fullmatch(r"cpdef [\w ]*?(\w+)\((.*)\)(?: except [-\w*]+)?", text):
            assert current is not None, f"{path.name}: {text!r} outside a class"
            args = [a.split()[-1].split("=")[0] for a in m[2].split(",") if a.strip()]
            current.functions.append(PxdFunction(m[1], args, pending))
            pending = []
        elif text in ("pass", "cimport cython") or text.startswith(("from ", "cimport ")):
            continue
        else:
            raise AssertionError(f"{path.name}: a declaration this test cannot read: {text!r}")
    return classes


def _module_of(pxd: Path) -> str:
    return ".".join(pxd.relative_to(ROOT).with_suffix("").parts)


def _assigned_self_attrs(cls: ast.ClassDef) -> set[str]:
    """The attributes the class's methods set on ``self``, and its ``__slots__``."""
    out: set[str] = set()
    for node in ast.walk(cls):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            out.add(node.attr)
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in stmt.targets
        ):
            out |= set(ast.literal_eval(stmt.value))
    return out


def _locals_of(fn: ast.FunctionDef) -> set[str]:
    """The names a function binds: its arguments and its assigned or looped-over names."""
    names = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _all_classes() -> dict[str, tuple[str, PxdClass]]:
    """Every declared class by name, with the module that defines it."""
    out: dict[str, tuple[str, PxdClass]] = {}
    for pxd in PXDS:
        for name, decl in parse_pxd(pxd).items():
            if name != MODULE:
                out[name] = (_module_of(pxd), decl)
    return out


def test_every_pxd_belongs_to_a_compiled_module() -> None:
    assert PXDS, "no .pxd found: the compiled build lost its declarations"
    for pxd in PXDS:
        assert _module_of(pxd) in build.COMPILED_MODULES, f"{pxd.name}: its module is not compiled"
        assert pxd.with_suffix(".py").exists(), f"{pxd.name} has no module beside it"


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_declared_classes_methods_and_locals_are_the_modules(pxd: Path) -> None:
    tree = ast.parse(pxd.with_suffix(".py").read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for name, decl in parse_pxd(pxd).items():
        if name == MODULE:
            methods = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        else:
            assert name in classes, f"{pxd.name}: class {name} is not in the module"
            cls = classes[name]
            bases = [b.id for b in cls.bases if isinstance(b, ast.Name)]
            assert bases == ([decl.base] if decl.base else []), f"{name}: bases {bases}"
            methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
        for fn in decl.functions:
            where = f"{pxd.name}: {name}.{fn.name}"
            assert fn.name in methods, f"{where} is not a method of the module's class"
            py_args = [a.arg for a in methods[fn.name].args.args]
            assert fn.args == py_args, f"{where}: arguments {fn.args} against {py_args}"
            stale = set(fn.locals) - _locals_of(methods[fn.name])
            assert not stale, f"{where}: typed locals the method no longer has: {sorted(stale)}"


def test_every_attribute_a_method_sets_is_declared() -> None:
    # an extension type has only the attributes its .pxd declares (its own and its bases'):
    # one set in the pure module but not declared raises AttributeError on the compiled build
    declared = _all_classes()
    for name, (module, decl) in declared.items():
        path = ROOT / Path(*module.split(".")).with_suffix(".py")
        tree = ast.parse(path.read_text())
        cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
        attrs = set(decl.attrs)
        base = decl.base
        while base is not None:
            attrs |= declared[base][1].attrs
            base = declared[base][1].base
        missing = _assigned_self_attrs(cls) - attrs
        assert not missing, f"{module}.{name} sets undeclared attributes: {sorted(missing)}"


def test_every_declared_attribute_is_set_by_its_class_or_a_subclass() -> None:
    declared = _all_classes()
    for name, (module, decl) in declared.items():
        setters = {name} | {n for n, (_m, d) in declared.items() if _derives(declared, n, name)}
        assigned: set[str] = set()
        for setter in setters:
            path = ROOT / Path(*declared[setter][0].split(".")).with_suffix(".py")
            tree = ast.parse(path.read_text())
            cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == setter)
            assigned |= _assigned_self_attrs(cls)
        # BoardState.copy sets a new board's attributes through another name: count those too
        path = ROOT / Path(*module.split(".")).with_suffix(".py")
        text = path.read_text()
        assigned |= set(re.findall(r"\b\w+\.(\w+)\s*=[^=]", text)) & decl.attrs
        # __weakref__ is the slot that lets an extension type be weakly referenced
        stale = decl.attrs - assigned - {"__weakref__"}
        assert not stale, f"{module}.{name} declares attributes nothing sets: {sorted(stale)}"


def _derives(declared: dict[str, tuple[str, PxdClass]], name: str, base: str) -> bool:
    b = declared[name][1].base
    while b is not None:
        if b == base:
            return True
        b = declared[b][1].base
    return False


def test_the_parser_reads_what_it_checks(tmp_path: Path) -> None:
    # the checks above are only as good as this reading of a .pxd
    pxd = tmp_path / "m.pxd"
    pxd.write_text(
        "cimport cython\n\ncdef class A(B):\n    cdef public list x, y  # why\n"
        "    cdef public Py_ssize_t n\n    @cython.locals(\n        r=Py_ssize_t, s=list,\n    )\n"
        "    cpdef tuple f(self, a, list b) except -1\n"
    )
    (decl,) = parse_pxd(pxd).values()
    assert (decl.name, decl.base, decl.attrs) == ("A", "B", {"x", "y", "n"})
    assert decl.functions == [PxdFunction("f", ["self", "a", "b"], ["r", "s"])]
    pxd.write_text(
        "cdef class A:\n    cpdef f(self)\n\n@cython.locals(k=Py_ssize_t)\ncpdef list g(list a, b)\n"
    )
    got = parse_pxd(pxd)
    assert got["A"].functions == [PxdFunction("f", ["self"], [])]
    assert got[MODULE].functions == [PxdFunction("g", ["a", "b"], ["k"])]
    pxd.write_text("cdef class A:\n    cdef inline int g(self)\n")
    with pytest.raises(AssertionError, match="cannot read"):
        parse_pxd(pxd)
