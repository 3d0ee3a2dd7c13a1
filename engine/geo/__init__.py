"""Maps from real geography: importing a country's outline into squares
(:mod:`~engine.geo.country`), the places on it (:mod:`~engine.geo.places`) and their local names
(:mod:`~engine.geo.citynames`), and drafting a playable map from an import
(:mod:`~engine.geo.draft`); around and on any map, the land, sea and neighbours' names its print
and its reports draw (:mod:`~engine.geo.backdrop`, :mod:`~engine.geo.neighbours`) and places
named in words (:mod:`~engine.geo.naming`). ``engine.geo.mapbuild`` is a build tool of the repository (the
shipped country maps), not part of the installed package."""
