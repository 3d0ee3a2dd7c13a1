"""Balance analysis: many games played by bots (:mod:`~engine.analysis.simulate`, on a Dask
cluster with :mod:`~engine.analysis.cluster`), their statistics (:mod:`~engine.analysis.balance`),
comparisons and sweeps of rule options (:mod:`~engine.analysis.compare`,
:mod:`~engine.analysis.sweep`) and the reports written from them (:mod:`~engine.analysis.report`,
whose JSON types are :mod:`~engine.analysis.report_types`, its figures drawn on the map by
:mod:`~engine.analysis.mapfigure`, its plain verdicts :mod:`~engine.analysis.verdicts`, and what
differs between two compared maps :mod:`~engine.analysis.mapdiff`); the statistics of paired games
(:mod:`~engine.analysis.paired`), game-quality figures (:mod:`~engine.analysis.quality`), the
play-style and skill studies (:mod:`~engine.analysis.plans`) and the tuner
(:mod:`~engine.analysis.tune`, with a candidate's map and the answer's files in
:mod:`~engine.analysis.candidate`). The top of the engine below the command line: nothing else in
the engine imports it."""
