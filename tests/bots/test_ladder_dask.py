"""The ladder on a Dask distributed cluster gives the same rows as one
process (issue #16)."""

from __future__ import annotations

import pytest

from bots.ladder import DaskExecutor, LadderError, LadderStore, run_ladder

distributed = pytest.importorskip("distributed")

GAME = "dix:variant=seventeen,target=10"


def _rows(db):
    with LadderStore.open(db) as store:
        return [{k: v for k, v in r.items() if k != "seconds"}
                for r in store.rows(with_record=True)]


def test_dask_local_cluster_same_rows_as_one_job(tmp_path):
    local, dask_db = str(tmp_path / "local.db"), str(tmp_path / "dask.db")
    run_ladder(GAME, "rules,random,ismcts:iterations=5", deals=4, seed=3, db=local, jobs=1,
               progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        s = run_ladder(GAME, "rules,random,ismcts:iterations=5", deals=4, seed=3,
                       db=dask_db, dask=cluster.scheduler_address, progress=False)
    assert s.played == 4 * 3 * 2 and "Dask cluster" in s.where
    assert _rows(dask_db) == _rows(local)


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    with pytest.raises(LadderError, match="cannot reach the scheduler"):
        DaskExecutor("tcp://127.0.0.1:9", timeout=2)
