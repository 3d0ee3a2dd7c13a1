"""An import-linter contract type for a sub-module of an external package.

import-linter's graph keeps an external package as one node (``PySide6``), so its ``forbidden``
contract cannot tell ``PySide6.QtWidgets`` from ``PySide6.QtCore``. This contract reads the
import lines the graph keeps: a source module (or any module it imports, directly or not) must
not import a forbidden sub-module. Registered in pyproject.toml (``contract_types``).
"""

from __future__ import annotations

import re

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class ForbiddenSubmoduleContract(Contract):
    """``source_modules`` (and what they import) never import ``forbidden_submodules``."""

    source_modules = fields.ListField(subfield=fields.ModuleField())
    forbidden_submodules = fields.ListField(subfield=fields.StringField())

    def _importers_of(self, graph: ImportGraph, external: str) -> dict[str, str]:
        """Every module that imports the sub-module ``external``, with the line that does."""
        top = external.split(".")[0]
        pattern = re.compile(rf"(from|import)\s+{re.escape(external)}\b")
        found: dict[str, str] = {}
        for importer in graph.find_modules_that_directly_import(top):
            for detail in graph.get_import_details(importer=importer, imported=top):
                if pattern.search(str(detail["line_contents"])):
                    found[importer] = (
                        f"{importer}:{detail['line_number']}: {detail['line_contents']}"
                    )
        return found

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        broken: list[str] = []
        for external in self.forbidden_submodules:  # type: ignore[attr-defined]
            carriers = self._importers_of(graph, external)
            for source in self.source_modules:  # type: ignore[attr-defined]
                name = source.name
                sources = {name} | graph.find_descendants(name)
                for module in sorted(sources):
                    for carrier, line in sorted(carriers.items()):
                        if carrier == module:
                            broken.append(f"{module} imports {external} ({line})")
                            continue
                        if carrier in sources:
                            continue  # reported as its own direct import
                        chain = graph.find_shortest_chain(importer=module, imported=carrier)
                        if chain:
                            broken.append(f"{' -> '.join(chain)}, which imports {external}")
        return ContractCheck(kept=not broken, metadata={"broken": sorted(set(broken))})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for line in check.metadata["broken"]:
            output.print_error(line)
            output.new_line()
