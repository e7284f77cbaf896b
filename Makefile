# Two commands for a newcomer: `make run` starts the whole service, `make test` runs the suite.
# Both set up what they need first (virtualenv, packages, database).

VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
PORT ?= 8000

.PHONY: run secrets test lint setup static migrate system-deps container-deps bench profiles messages \
	messages-update gettext-deps axe

$(PY):
	python3 -m venv $(VENV)

$(INSTALLED): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

setup: $(INSTALLED)

# numba compiles the engine on its first run (10-20 s); doing it here, once after installing
# and again after the engine changes, keeps that out of the first job `make run` serves.
# The compiled code is cached in __pycache__ beside the engine (or in NUMBA_CACHE_DIR).
# The project's modules are byte-compiled here too, as pip does for installed packages:
# where PYTHONDONTWRITEBYTECODE is set, every command would otherwise compile them again.
WARM := $(VENV)/.engine-warm
$(WARM): $(INSTALLED) $(wildcard wordclouds/engine/*.py)
	$(PY) -m compileall -q config core wordclouds commerce exports
	$(PY) manage.py warm_engine
	touch $@

# Ghostscript and Scribus are the real readers the export tests check the .ai files with;
# Chromium is the browser the page tests (tests/pages/) drive; Pango's pango-view and
# HarfBuzz's hb-shape are the independent shapers the engine's drawing of names is checked
# against (tests/engine/); qpdf and Poppler (pdfinfo, pdffonts, pdftoppm) check and render the
# print PDFs (tests/exports/pdf/); OpenStack Swift (proxy with its S3 API, object, container
# and account servers) is the S3-compatible store the storage tests run against
# (deploy/swift/run.sh); Inkscape (its DXF import, run as its dxf_input extension with
# Debian's python3 and cssselect) and rsvg-convert read the laser files (tests/exports/laser/).
# GNU gettext compiles and updates the translations (docs/i18n.md). npm (for axe-core) only
# where the machine has none: Debian's npm conflicts with a Node.js installed from elsewhere
# (NodeSource's nodejs brings its own npm).
system-deps:
	@command -v gs >/dev/null && command -v scribus >/dev/null && command -v chromium >/dev/null \
		&& command -v msgfmt >/dev/null && command -v pg_dump >/dev/null \
		&& command -v pango-view >/dev/null && command -v hb-shape >/dev/null \
		&& command -v qpdf >/dev/null && command -v pdftoppm >/dev/null \
		&& command -v inkscape >/dev/null && command -v rsvg-convert >/dev/null \
		&& /usr/bin/python3 -c "import cssselect, numpy" 2>/dev/null \
		&& command -v swift-proxy-server >/dev/null && command -v swift-object-server >/dev/null \
		&& command -v npm >/dev/null || { \
		echo "installing ghostscript, scribus, chromium, pango-view, hb-shape, qpdf, poppler-utils, inkscape, rsvg-convert, swift, gettext, postgresql-client and (without one) npm from Debian's packages"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		NPM=$$(command -v npm >/dev/null || echo npm); \
		$$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			ghostscript scribus chromium pango1.0-tools libharfbuzz-bin qpdf poppler-utils \
			inkscape python3-cssselect python3-numpy python3-lxml librsvg2-bin \
			swift-proxy swift-object swift-container swift-account gettext postgresql-client $$NPM >/dev/null; }

# axe-core, which the accessibility tests (tests/pages/test_accessibility.py) put into the pages
# they check; from the npm registry, pinned, kept under var/ (never served by the service).
AXE_VERSION := 4.14.1
AXE := var/npm/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --silent --no-save --no-audit --no-fund --prefix var/npm axe-core@$(AXE_VERSION)
axe: system-deps $(AXE)

# The press profiles of the print PDF (docs/exports.md, "Profiles"): extracted from Debian's
# non-free icc-profiles package into ICC_PROFILE_DIR, without installing it.
ICC_PROFILE_DIR ?= var/icc-profiles
profiles:
	@deploy/icc-profiles.sh $(ICC_PROFILE_DIR)

# Podman, its compose front end, runc and debootstrap build and run the images (deploy/).
container-deps:
	@command -v podman >/dev/null && command -v podman-compose >/dev/null && \
		command -v runc >/dev/null && command -v debootstrap >/dev/null || { \
		echo "installing podman, podman-compose, runc and debootstrap from Debian's packages"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q \
			podman podman-compose runc debootstrap >/dev/null; }

# The pages' and the admin's translations (docs/i18n.md): each committed .po compiled to the
# .mo Django reads (not committed), again whenever the .po changes. GNU gettext's msgfmt comes
# from Debian's packages, installed here when missing, so `make run` needs no other step.
MESSAGES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/*.po))
messages: $(MESSAGES)
$(MESSAGES): %.mo: %.po | gettext-deps
	msgfmt --check-format -o $@ $<
# After adding or changing a string marked for translation (docs/i18n.md, "Adding a
# string"): the catalogs brought up to date with the sources; each new entry then needs its
# Chinese in locale/zh_Hans/LC_MESSAGES/*.po (tests/i18n/ fails until it has one).
MESSAGE_SOURCES := --ignore=$(VENV) --ignore=var --ignore=tests --ignore=bench --ignore=media \
	--ignore=node_modules --no-obsolete -l zh_Hans
messages-update: setup gettext-deps
	$(PY) manage.py makemessages -d django $(MESSAGE_SOURCES)
	$(PY) manage.py makemessages -d djangojs $(MESSAGE_SOURCES)
	$(MAKE) messages
gettext-deps:
	@command -v msgfmt >/dev/null || { \
		echo "installing gettext from Debian's packages"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get -o DPkg::Lock::Timeout=600 update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -q \
			gettext >/dev/null; }

# The admin's and the pages' CSS and scripts, served by the service itself (servestatic).
static: setup messages
	$(PY) manage.py collectstatic --noinput --verbosity 0

migrate: static
	$(PY) manage.py migrate --noinput

# Where runall refuses the built-in secrets (HOST not loopback, HTTPS=1: docs/settings.md,
# "Built-in secrets"), `make run` says so at once, before its set-up steps.
run: secrets migrate profiles $(WARM)
	PORT=$(PORT) $(PY) manage.py runall
secrets: setup
	@$(PY) manage.py runall --secrets-only

# ruff's lint and format checks (settings in pyproject.toml); `ruff format .` fixes the format.
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Two steps (CONTRIBUTING.md, "Running things"): every test but those marked serial on both
# cores (pytest-xdist), each e2e module on one worker whole (tests/conftest.py groups them),
# so that its service starts once (each worker has its own ports, databases, media folders,
# queue names and store bucket); then alone the serial ones (latency, shared node ids). MARKS
# narrows both steps (.ci/run's second pass: MARKS=backend); STEPS names the steps to run
# (.ci/run runs the container check beside that pass's parallel step, before its serial one).
# The engine is compiled first ($(WARM)), so that no test's process pays numba's
# compilation, several of them at once.
MARKS ?=
STEPS ?= parallel serial
only = $(if $(MARKS), and ($(MARKS)))
test: lint system-deps profiles static axe $(WARM)
	$(if $(filter parallel,$(STEPS)),$(PY) -m pytest -m "not serial$(only)" -n 2 --dist loadgroup)
	$(if $(filter serial,$(STEPS)),$(PY) -m pytest -m "serial$(only)")

bench: setup $(WARM)
	$(PY) -m pip install --quiet -r requirements-bench.txt
	$(PY) bench/engine.py
	$(PY) bench/exports.py
