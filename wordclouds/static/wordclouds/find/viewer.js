// The poster viewer: the job's zoom pyramid (GET /api/jobs/{id}/tiles) drawn as tiles in
// poster coordinates, moved by one CSS transform. Level 0 (one tile) and the overview level
// that fits the screen are loaded at once; deeper levels only for the part on screen, as the
// user zooms. Mouse drag,
// wheel, touch drag and pinch (pointer events) move and zoom; so do the keys when the viewer
// has the focus (arrows move, + and − zoom, 0 shows the whole poster). A job without a
// pyramid shows its PNG as one image.

const MAX_PIXEL_ZOOM = 4; // screen pixels per poster pixel at the closest zoom
const FOUND_ZOOM = 2; // at most this close when showing a found name: sharper, more context

export class PosterViewer {
  constructor(viewer, stage, highlight) {
    this.viewer = viewer;
    this.stage = stage;
    this.highlightElement = highlight;
    this.box = null;
    this.scale = 1;
    this.x = 0; // screen position of the poster's top left corner, in viewer pixels
    this.y = 0;
    this.pointers = new Map();
    this.loaded = new Set();
    this.frame = 0;
    this.listen();
  }

  // `index`: the pyramid's index, or null to show `pngUrl` as one image.
  open(width, height, index, tileUrl, pngUrl) {
    this.width = width;
    this.height = height;
    this.index = index;
    this.tileUrl = tileUrl;
    this.stage.style.width = `${width}px`;
    this.stage.style.height = `${height}px`;
    if (!index) {
      document.getElementById("poster-placeholder")?.remove();
      const image = document.createElement("img");
      image.src = pngUrl;
      image.alt = "";
      image.className = "poster-whole";
      this.stage.append(image);
    } else {
      this.levelSizes = [];
      let size = [index.width, index.height];
      for (let level = index.levels - 1; level >= 0; level--) {
        this.levelSizes[level] = size;
        size = [Math.ceil(size[0] / 2), Math.ceil(size[1] / 2)];
      }
    }
    this.fit();
    if (index) this.overview = this.levelFor(this.scale);
  }

  fit() {
    const { clientWidth: width, clientHeight: height } = this.viewer;
    this.minScale = Math.min(width / this.width, height / this.height);
    this.scale = this.minScale;
    this.x = (width - this.width * this.scale) / 2;
    this.y = (height - this.height * this.scale) / 2;
    this.draw();
  }

  // The shallowest level whose pixels are at least as fine as the screen's at `scale`.
  levelFor(scale) {
    const deepest = this.index.levels - 1;
    const needed = scale * (window.devicePixelRatio || 1);
    const steps = Math.floor(Math.log2(1 / Math.max(needed, 1e-9)));
    return Math.max(0, Math.min(deepest, deepest - Math.max(0, steps)));
  }

  zoomAt(factor, screenX, screenY) {
    const scale = Math.min(MAX_PIXEL_ZOOM, Math.max(this.minScale, this.scale * factor));
    const posterX = (screenX - this.x) / this.scale;
    const posterY = (screenY - this.y) / this.scale;
    this.scale = scale;
    this.x = screenX - posterX * scale;
    this.y = screenY - posterY * scale;
    this.draw();
  }

  zoomCentre(factor) {
    this.zoomAt(factor, this.viewer.clientWidth / 2, this.viewer.clientHeight / 2);
  }

  // Centres the poster box {x, y, width, height} and zooms so it takes about a third of
  // the screen, then draws the highlight exactly over it.
  show(box) {
    const { clientWidth: width, clientHeight: height } = this.viewer;
    const scale = Math.min(width / 3 / box.width, height / 3 / box.height, FOUND_ZOOM);
    this.scale = Math.max(this.minScale, scale);
    this.x = width / 2 - (box.x + box.width / 2) * this.scale;
    this.y = height / 2 - (box.y + box.height / 2) * this.scale;
    this.box = box;
    this.draw();
  }

  clear() {
    this.box = null;
    this.draw();
  }

  draw() {
    this.stage.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
    const highlight = this.highlightElement;
    highlight.hidden = !this.box;
    if (this.box) {
      highlight.style.left = `${this.x + this.box.x * this.scale}px`;
      highlight.style.top = `${this.y + this.box.y * this.scale}px`;
      highlight.style.width = `${this.box.width * this.scale}px`;
      highlight.style.height = `${this.box.height * this.scale}px`;
    }
    if (this.index && !this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.loadTiles(0); // one tile: something to see while the overview level arrives
        this.loadTiles(this.overview ?? this.levelFor(this.scale));
        this.loadTiles(this.levelFor(this.scale));
      });
    }
  }

  // Adds the tiles of `level` that are on screen and not loaded yet.
  loadTiles(level) {
    const size = this.index.tile_size;
    const span = size * 2 ** (this.index.levels - 1 - level); // poster pixels per tile
    const [levelWidth, levelHeight] = this.levelSizes[level];
    const left = Math.max(0, -this.x / this.scale);
    const top = Math.max(0, -this.y / this.scale);
    const right = Math.min(this.width, (this.viewer.clientWidth - this.x) / this.scale);
    const bottom = Math.min(this.height, (this.viewer.clientHeight - this.y) / this.scale);
    for (let row = Math.floor(top / span); row * span < bottom; row++) {
      for (let column = Math.floor(left / span); column * span < right; column++) {
        const key = `${level}/${column}_${row}`;
        if (this.loaded.has(key)) continue;
        this.loaded.add(key);
        const tile = document.createElement("img");
        tile.className = "poster-tile";
        tile.alt = "";
        tile.decoding = "async";
        tile.style.zIndex = level;
        tile.style.left = `${column * span}px`;
        tile.style.top = `${row * span}px`;
        tile.style.width = `${Math.min(size, levelWidth - column * size) * span / size}px`;
        tile.style.height = `${Math.min(size, levelHeight - row * size) * span / size}px`;
        tile.src = this.tileUrl(level, column, row);
        // The page's placeholder goes once the stage draws the poster itself.
        tile.addEventListener("load", () => document.getElementById("poster-placeholder")?.remove(), { once: true });
        this.stage.append(tile);
      }
    }
  }

  listen() {
    const viewer = this.viewer;
    viewer.addEventListener("keydown", (event) => {
      const step = Math.min(viewer.clientWidth, viewer.clientHeight) / 8;
      const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
      const zooms = { "+": 2, "=": 2, "-": 0.5, "_": 0.5 };
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (moves[event.key]) {
        this.x += moves[event.key][0];
        this.y += moves[event.key][1];
        this.draw();
      } else if (zooms[event.key]) {
        this.zoomCentre(zooms[event.key]);
      } else if (event.key === "0") {
        this.fit();
      } else {
        return;
      }
      event.preventDefault();
    });
    viewer.addEventListener("wheel", (event) => {
      event.preventDefault();
      const bounds = viewer.getBoundingClientRect();
      this.zoomAt(Math.exp(-event.deltaY * 0.002), event.clientX - bounds.left, event.clientY - bounds.top);
    }, { passive: false });
    viewer.addEventListener("dblclick", (event) => {
      const bounds = viewer.getBoundingClientRect();
      this.zoomAt(2, event.clientX - bounds.left, event.clientY - bounds.top);
    });
    viewer.addEventListener("pointerdown", (event) => {
      if (event.target.closest("button")) return;
      viewer.setPointerCapture(event.pointerId);
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    });
    viewer.addEventListener("pointermove", (event) => {
      const before = this.pointers.get(event.pointerId);
      if (!before) return;
      const others = [...this.pointers].filter(([id]) => id !== event.pointerId).map(([, p]) => p);
      const now = { x: event.clientX, y: event.clientY };
      if (others.length === 0) {
        this.x += now.x - before.x;
        this.y += now.y - before.y;
        this.draw();
      } else {
        // Pinch: zoom by the change of the distance to the other finger, about the middle,
        // and move with the middle.
        const other = others[0];
        const bounds = viewer.getBoundingClientRect();
        const distance = (a) => Math.hypot(a.x - other.x, a.y - other.y) || 1;
        const middleBefore = { x: (before.x + other.x) / 2, y: (before.y + other.y) / 2 };
        const middleNow = { x: (now.x + other.x) / 2, y: (now.y + other.y) / 2 };
        this.x += middleNow.x - middleBefore.x;
        this.y += middleNow.y - middleBefore.y;
        this.zoomAt(distance(now) / distance(before), middleNow.x - bounds.left, middleNow.y - bounds.top);
      }
      this.pointers.set(event.pointerId, now);
    });
    const release = (event) => this.pointers.delete(event.pointerId);
    viewer.addEventListener("pointerup", release);
    viewer.addEventListener("pointercancel", release);
    window.addEventListener("resize", () => {
      if (!this.width) return;
      const box = this.box;
      this.fit();
      if (box) this.show(box);
    });
  }
}
