"""A browser's EventSource on a finished job (Debian's Chromium): it opens once, gets every
event and `end`, and its one reconnect after the stream closes is answered 204, which stops
it for good (the stream's `retry:` sets how soon that reconnect comes)."""

import time

import httpx
import pytest

from tests.wordclouds.conftest import names_xlsx  # noqa: F401  (a fixture)

pytestmark = pytest.mark.e2e
LISTEN = """async ([url, seconds]) => {
    const seen = {opens: 0, events: []};
    const source = new EventSource(url);
    source.onopen = () => { seen.opens += 1; };
    for (const type of ["status", "log", "end"]) {
        source.addEventListener(type, (event) => seen.events.push([type, event.lastEventId]));
    }
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    seen.state = source.readyState;
    return seen;
}"""


def test_an_event_source_on_a_finished_job_gets_everything_once(page, service, names_xlsx):
    job_id = service.submit(
        names_xlsx(["Anna", "Bruno", "Chloé"]), {"SEED": 1, "WIDTH": 300, "HEIGHT": 200}
    )
    job = service.wait_for(job_id, lambda job: job["status"] in ("success", "failed"), 120)
    assert job["status"] == "success", job
    last = httpx.get(f"{service.url}/api/jobs/{job_id}/detail").json()["recent_events"][-1]["id"]
    url = f"/api/jobs/{job_id}/events"
    answers = []
    page.on(
        "response",
        lambda response: answers.append(response.status) if response.url.endswith(url) else None,
    )
    page.goto("/api/health")

    seen = page.evaluate(LISTEN, [url, 8])

    ids = [int(event_id) for kind, event_id in seen["events"] if kind != "end"]
    assert seen["opens"] == 1
    assert ids == list(range(1, last + 1)) and last >= 3
    assert seen["events"][-1][0] == "end"
    assert [kind for kind, _ in seen["events"]].count("end") == 1
    assert seen["state"] == 2  # CLOSED: the 204 ended it
    time.sleep(1)
    assert answers == [200, 204]
