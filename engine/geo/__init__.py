"""Maps from real geography: importing a country's outline into squares
(:mod:`~engine.geo.country`), the places on it (:mod:`~engine.geo.places`) and their local names
(:mod:`~engine.geo.citynames`), and drafting a playable map from an import
(:mod:`~engine.geo.draft`). ``engine.geo.mapbuild`` is a build tool of the repository (the
shipped country maps), not part of the installed package."""
