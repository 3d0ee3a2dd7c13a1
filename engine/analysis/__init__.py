"""Balance analysis: many games played by bots (:mod:`~engine.analysis.simulate`, on a Dask
cluster with :mod:`~engine.analysis.cluster`), their statistics (:mod:`~engine.analysis.balance`),
comparisons and sweeps of rule options (:mod:`~engine.analysis.compare`,
:mod:`~engine.analysis.sweep`) and the reports written from them (:mod:`~engine.analysis.report`,
whose JSON types are :mod:`~engine.analysis.report_types`). The top of the engine below the
command line: nothing else in the engine imports it."""
