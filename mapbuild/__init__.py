"""Build tools of the repository (not part of the installed packages): ``mapbuild.countrymaps``
makes the shipped country maps from their design files in ``maps/sources/``."""
