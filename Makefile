# Two commands for a newcomer: `make run` starts the whole service, `make test` runs the suite.
# Both set up what they need first (virtualenv, packages, database).

VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
PORT ?= 8000

.PHONY: run test setup migrate system-deps bench

$(PY):
	python3 -m venv $(VENV)

$(INSTALLED): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

setup: $(INSTALLED)

# Ghostscript and Scribus are the real readers the export tests check the .ai files with.
system-deps:
	@command -v gs >/dev/null && command -v scribus >/dev/null || { \
		echo "installing ghostscript and scribus from Debian's packages"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q \
			ghostscript scribus >/dev/null; }

migrate: setup
	$(PY) manage.py migrate --noinput

run: migrate
	PORT=$(PORT) $(PY) manage.py runall

test: setup system-deps
	$(PY) -m pytest

bench: setup
	$(PY) -m pip install --quiet -r requirements-bench.txt
	$(PY) bench/engine.py
	$(PY) bench/exports.py
