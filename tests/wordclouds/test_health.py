import pytest


@pytest.mark.django_db
def test_health_answers_ok_while_the_database_answers(api):
    response = api.get("/api/health")

    assert response.status_code == 200
    assert response.json() == {"ok": True}


@pytest.mark.django_db
def test_unknown_api_route_is_json_404(api):
    response = api.get("/api/no-such-thing")

    assert response.status_code == 404
    assert response.json() == {"detail": "not found"}


@pytest.mark.django_db
def test_wrong_method_is_json_405(api):
    response = api.post("/api/health")

    assert response.status_code == 405
    assert "detail" in response.json()


@pytest.mark.django_db
def test_cors_allows_every_origin_with_authorization(api):
    response = api.options(
        "/api/health",
        HTTP_ORIGIN="https://poster.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization",
    )

    assert response["Access-Control-Allow-Origin"] == "*"
    assert "authorization" in response["Access-Control-Allow-Headers"].lower()


@pytest.mark.django_db
def test_schema_is_served(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
