"""Browser tests: the real server in a process of its own (a temporary SQLite database, a
free localhost port) and Debian's Chromium driven by Playwright.

Nothing here depends on the machine's speed: tests wait for what the page shows, with
bounds (STUCK) that only a stuck test reaches.

Chromium comes from the system (`scripts/ensure-chromium.sh` installs it); Playwright's own
browser downloads are never used. Without /usr/bin/chromium these tests are skipped, except
under CI (CI set), where that is a failure. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    Response,
    ViewportSize,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from machiavel.server.launch import (
    free_port,
    serve_command,
    start_server_process,
    stop_server_process,
)
from support.waiting import PAGE_WAIT_MS, STUCK

CHROMIUM = os.environ.get("MACHIAVEL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@dataclass
class Server:
    """A running `machiavel serve` and a tiny JSON client for its API."""

    base: str
    process: subprocess.Popen[bytes]
    log: Path
    database_url: str  # where a test reads what the server stored (a table's seed)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("content-type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=STUCK) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        status, data = self.call("POST", "/api/games", body)
        assert status == 201, data
        result: dict[str, Any] = data
        return result

    def state(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        query = f"?token={token}" if token else ""
        status, data = self.call("GET", f"/api/games/{game_id}{query}")
        assert status == 200, data
        result: dict[str, Any] = data
        return result

    def act(self, game_id: str, token: str, action: str, version: int) -> dict[str, Any]:
        body = {"token": token, "action": action, "version": version}
        status, data = self.call("POST", f"/api/games/{game_id}/actions", body)
        assert status == 200, data
        result: dict[str, Any] = data
        return result


def start_server(database: Path, port: int, log: Path) -> Server:
    url = f"sqlite:///{database}"
    # Every page and helper of a worker's tests comes from one address and one server: the
    # per-address limits (tables, writes a second) are tested in tests/server, not here.
    command = [*serve_command(url, port, bot_workers=2), "--no-limits"]
    with log.open("ab") as out:
        process = start_server_process(command, out)
    server = Server(f"http://127.0.0.1:{port}", process, log, url)
    deadline = time.monotonic() + STUCK
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at once:\n{log.read_text()}")
        try:
            status, _ = server.call("GET", "/api/catalog")
            if status == 200:
                return server
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.2)
    stop_server(server)
    raise RuntimeError(f"the server did not answer in time:\n{log.read_text()}")


def stop_server(server: Server) -> None:
    stop_server_process(server.process)  # its bot workers too, whatever happens


@pytest.fixture(scope="session")
def chromium() -> str:
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(autouse=True)
def patient_expectations() -> Iterator[None]:
    """Expectations wait for what the server sends as long as the page waits: Playwright's
    ``expect`` does not take the context's default timeout, and its own 5 s are too short
    for a busy machine. Back to Playwright's default after each test."""
    expect.set_options(timeout=PAGE_WAIT_MS)
    yield
    expect.set_options(timeout=None)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("web-server")
    running = start_server(folder / "machiavel.db", free_port(), folder / "server.log")
    yield running
    stop_server(running)


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Watched:
    """A page with the errors its scripts reported."""

    page: Page
    errors: list[str] = field(default_factory=list)


def console_error(entry: Watched, message: ConsoleMessage) -> None:
    # A 409 (the game moved on) is an answer the page handles, which Chromium still logs.
    if message.type == "error" and "status of 409" not in message.text:
        entry.errors.append(f"console: {message.text}")


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Watched]]:
    """``open_page(viewport=DESKTOP, locale, under_csp=False)``: a page in a fresh
    context (own localStorage); a script error on any of them fails the test."""
    contexts: list[BrowserContext] = []
    watched: list[Watched] = []

    def opener(
        viewport: ViewportSize | None = None, locale: str = "en-GB", *, under_csp: bool = False
    ) -> Watched:
        # Playwright's wait_for_function evaluates its predicate with eval, which the
        # page's Content-Security-Policy (no 'unsafe-eval') refuses: pages of tests that
        # wait so bypass the policy; test_web_csp.py runs pages under it (under_csp=True)
        # and waits for selectors only.
        context = browser.new_context(
            viewport=viewport or DESKTOP, locale=locale, bypass_csp=not under_csp
        )
        context.set_default_timeout(PAGE_WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        entry = Watched(page)
        page.on("pageerror", lambda error: entry.errors.append(f"page error: {error}"))
        page.on("console", lambda message: console_error(entry, message))
        watched.append(entry)
        return entry

    yield opener
    for context in contexts:
        context.close()
    problems = [error for entry in watched for error in entry.errors]
    assert not problems, problems


def settled(page: Page) -> None:
    """Wait until the page's animations (the step-by-step reveals) are over and its latest
    layout is drawn: a picture then shows what a person would see."""
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    page.evaluate(
        "new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"
    )


def take_screenshot(page: Page, name: str, *, phone_too: bool = False) -> None:
    """Save the page (whole length) under artifacts/screenshots/, and at phone width."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    settled(page)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    if phone_too:
        before = page.viewport_size
        page.set_viewport_size(PHONE)
        settled(page)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-phone.png"), full_page=True)
        if before is not None:
            page.set_viewport_size(before)


def create_table_via_lobby(
    page: Page,
    base: str,
    game: str,
    *,
    players: int | None = None,
    options: dict[str, str | bool] | None = None,
    level: str = "easy",
    name: str = "Ada",
) -> str:
    """Create a table through the lobby form: me at seat 1, bots elsewhere; the game id."""
    page.goto(base + "/")
    page.wait_for_selector("#new-table")
    page.fill("#lobby-name", name)
    page.select_option("#new-game", game)
    if players is not None and page.locator("#new-players").is_enabled():
        page.select_option("#new-players", str(players))
    for option, value in (options or {}).items():
        field_ = page.locator(f"#opt-{option}")
        if isinstance(value, bool):
            field_.set_checked(value)
        elif field_.evaluate("node => node.tagName") == "SELECT":
            field_.select_option(label=value)
        else:
            field_.fill(value)
    for select in page.locator("select.seat-kind:not([disabled])").all():
        select.select_option(f"bot:{level}")
    page.click("#create")
    page.wait_for_selector(".game-page")
    game_id: str = page.evaluate("decodeURIComponent(location.hash.split('/')[2])")
    return game_id


# A point of the element that the element itself receives (not something drawn over it),
# scrolled into view: where a person would click. Null when nothing of it can be hit.
_POINT_SEEN = """element => {
    element.scrollIntoView({block: 'center', inline: 'center'});
    const box = element.getBoundingClientRect();
    for (const fy of [0.5, 0.25, 0.75, 0.1, 0.9]) {
        for (const fx of [0.5, 0.25, 0.75, 0.1, 0.9]) {
            const hit = document.elementFromPoint(box.left + box.width * fx, box.top + box.height * fy);
            if (hit && (hit === element || element.contains(hit))) {
                return {x: box.width * fx, y: box.height * fy};
            }
        }
    }
    return null;
}"""


def click_where_seen(target: Locator) -> None:
    """Click ``target`` as a person would: at its middle, or, when something is drawn over
    its middle (an SVG shape whose box centre lies on a neighbour), at a part of it that
    shows. Raises PlaywrightError when the page redraws meanwhile."""
    try:
        target.click(timeout=2000)
        return
    except PlaywrightError:
        point = target.evaluate(_POINT_SEEN, timeout=2000)
        if point is None:
            raise
    target.click(position=point, timeout=2000)


def play_by_clicking(
    page: Page,
    *,
    seed: int,
    prefer: Callable[[Page], str | None] | None = None,
    max_clicks: int = 3000,
    on_click: Callable[[int], None] | None = None,
) -> int:
    """Click random highlighted choices whenever it is this seat's turn, until the end
    screen; the number of clicks. Every action the page sends must be accepted (a 409,
    the game having moved on meanwhile, is allowed: the page then refreshes).

    However long the game takes, it fails only if it is stuck: no turn or choice shown
    for PAGE_WAIT_MS, no click going through for STUCK seconds, or more than
    ``max_clicks`` clicks (a game that never ends). The count includes the clicks that
    raised (they may have reached the page)."""
    rng = random.Random(seed)
    refused: list[str] = []

    def watch(response: Response) -> None:
        if response.url.endswith("/actions") and response.status not in (200, 409):
            refused.append(f"{response.status}: {response.text()}")

    page.on("response", watch)
    clicks = 0
    tried = 0  # clicks that raised, which may have gone through all the same
    last_click = time.monotonic()
    try:
        while True:
            page.wait_for_function("['mine', 'over'].includes(document.body.dataset.turn)")
            if page.evaluate("document.body.dataset.turn") == "over":
                break
            choices = page.locator(".choosable:not([disabled])")
            count = choices.count()
            if count == 0:  # a choice is being sent, or the page is between two states
                page.wait_for_function(
                    "document.body.dataset.turn !== 'mine'"
                    " || document.querySelector('.choosable:not([disabled])') !== null"
                )
                continue
            preferred = prefer(page) if prefer else None
            target = (
                page.locator(preferred).first if preferred else choices.nth(rng.randrange(count))
            )
            try:
                click_where_seen(target)
            except PlaywrightError as error:  # the page redrew under the pointer: look again
                assert time.monotonic() - last_click < STUCK, f"no click goes through: {error}"
                # A click whose answer came too late (a busy machine) may still have
                # reached the page: counted, so that every action stays within the clicks.
                tried += 1
                continue
            clicks += 1
            last_click = time.monotonic()
            assert clicks <= max_clicks, f"the game did not end in {max_clicks} clicks"
            assert not refused, refused
            if on_click:
                on_click(clicks)
        page.wait_for_selector("#end-screen")
        assert not refused, refused
    finally:
        page.remove_listener("response", watch)
    return clicks + tried


# Tests reach the helpers through fixtures (test modules cannot import this conftest).
@pytest.fixture
def screenshot() -> Callable[..., None]:
    return take_screenshot


@pytest.fixture
def create_table() -> Callable[..., str]:
    return create_table_via_lobby


@pytest.fixture
def play_until_over() -> Callable[..., int]:
    return play_by_clicking
