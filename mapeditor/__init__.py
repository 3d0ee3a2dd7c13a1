"""Carcassonne Maps Studio: the Qt map editor and playtest window, built on :mod:`engine`."""
