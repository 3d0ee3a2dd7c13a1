"""Build tools of the repository: neither shipped in the wheel (not in pyproject's package list)
nor imported by the engine at run time: ``engine.geo.mapbuild.countrymaps``
makes the shipped country maps from their design files in ``maps/sources/``."""
