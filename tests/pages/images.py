"""Waiting for a page's images in the browser tests."""

# Resolves once one image of the selector has real pixels (checked every 50 ms, 20 s at most).
IMAGE_LOADED = """(selector) => new Promise((resolve) => {
    const loaded = () => Array.from(document.querySelectorAll(selector))
        .some((img) => img.complete && img.naturalWidth > 0);
    if (loaded()) return resolve(true);
    const poll = setInterval(() => loaded() && (clearInterval(poll), resolve(true)), 50);
    setTimeout(() => (clearInterval(poll), resolve(false)), 20000);
})"""


def wait_for_image(page, selector: str) -> None:
    """Until one image of `selector` has loaded real pixels (thumbnails load lazily). Asked
    with one evaluate, never wait_for_function: that one polls by eval() in the page, which
    the pages' Content-Security-Policy refuses (no 'unsafe-eval') whenever its first check
    has not passed yet."""
    assert page.evaluate(IMAGE_LOADED, selector), f"no image of {selector} loaded in 20 s"
