"""The OpenAPI document agrees with the server: schemathesis (its own
command, as a user runs it, with ``--checks all``) against a real
``dixtrix serve``, every operation, its coverage, fuzzing and stateful
phases, with no failure.  ``schemathesis.toml`` beside this file says the
one allowance (a body judged by a game's rules may be refused with 422).

The request bodies' schemas are the Pydantic models that check them
(``bots/server/models.py``); a test here also checks that the document's
paths and methods are the app's routes, both ways."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .server_process import running

HERE = Path(__file__).resolve().parent
#: examples per operation and phase: small, the coverage phase adds its own
EXAMPLES = "3"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(str(tmp_path_factory.mktemp("schema") / "tables.db"), "--max-time", "0.05",
                 "--max-iterations", "200", "--max-worlds", "5", "--max-nodes", "20000",
                 "--hint-time", "0.05", "--threads", "1", "--queue", "64") as srv:
        yield srv


def test_schemathesis_finds_no_failure(server, tmp_path):
    exe = shutil.which("schemathesis") or shutil.which("st")
    if exe is None:
        pytest.skip("schemathesis is not installed (pip install -e '.[test]')")
    proc = subprocess.run(
        [exe, "--no-color", "--config-file", str(HERE / "schemathesis.toml"), "run",
         f"{server.url}/v1/openapi.json", "--checks", "all", "-n", EXAMPLES,
         "--generation-deterministic", "--request-timeout", "30"],
        capture_output=True, text=True, timeout=600,
        cwd=tmp_path)                   # its .schemathesis cache stays out of the checkout
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-6000:]
    assert "passed" in out and "failed" not in out.split("SUMMARY")[-1], out[-3000:]


def test_the_document_lists_exactly_the_app_routes(tmp_path):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    app = create_app(Settings(db=str(tmp_path / "t.db")))
    with TestClient(app) as client:
        doc = client.get("/v1/openapi.json").json()
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    served = {(path, method) for path, methods in app.state.routes.items() for method in methods
              if path not in ("/", "/docs", "/v1/openapi.json")}
    assert documented == served
    # every body's schema is the model's (no hand-written copy)
    from bots.server import models
    for path, model in (("/v1/hint", models.HintBody), ("/v1/review", models.ReviewBody),
                        ("/v1/tables/{table_id}/review", models.TableReviewBody)):
        body = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        assert set(body["schema"]["properties"]) == set(model.model_fields)
        assert body["schema"]["additionalProperties"] is False
