import Adapters
import FoundationEssentials
import TraitProtocol
import Vocabulary

/// `traitd-adapters --web APP=URL`: a web page in headless Chromium as app APP's adapter `web`.
///
/// For each transition the page gets what a browser on the simulated device would give it, over the DevTools
/// protocol (`DevToolsPipe`), then its elements' boxes are read back:
/// - the viewport is the window's size in CSS pixels (a CSS pixel is a point), the device scale factor the
///   display's scale, `mobile` and touch on (phones and iPads alike), the screen and its orientation
///   (`portraitPrimary` 0°, `landscapePrimary` 90°, `portraitSecondary` 180°, `landscapeSecondary` 270°);
/// - `prefers-color-scheme` from the appearance, `prefers-contrast: more` with high contrast,
///   `prefers-reduced-motion: reduce` with Reduce Motion (at once: the host lays the page out again, as the window
///   as it is, when the setting changes without a transition);
/// - the text size: the default font size is the Dynamic Type category's body size (17 px at `large`), which
///   `rem`s and unstyled text follow (`Page.setFontSizes`);
/// - right to left as a page sees it: the browser's locale and `navigator.language` become Arabic
///   (`Emulation.setLocaleOverride`); the page's own `dir` decides its layout, as on the web;
/// - the safe area in `env(safe-area-inset-*)`, in whole CSS pixels, the protocol's unit
///   (`Emulation.setSafeAreaInsetsOverride`).
///
/// Then, after the page's next rendering (an animation frame and a task queued from it: its layout and resize
/// observers have run at the new size; an event, not a sleep), every
/// rendered element with an `id` is reported as `id=(x, y, width, height)` in window coordinates: an element
/// with `display: none`, `visibility: hidden` or no area is not. Ids that are not element names (1-64 of
/// A-Z a-z 0-9 _ - .) are left out. A control without an id is reported by its role and accessible name
/// (`link:index`, `button:Go`), not a link inside running text; at most 255 elements, those the window shows
/// first (the script says which and why). `kinds`: buttons, links with an `href` and form fields are controls, images,
/// video and canvases content, an element holding others a container, one with text text. A page taller than
/// the window scrolls: it is reported as the element `viewport` (the window), and every element not
/// `position: fixed` as scrolled in it, so that what a person scrolls to is not outside the window (also when
/// the page is too wide as well: its width is the one `reflow` problem). Text the page cuts is its `clippedText`,
/// text whose colours stand out too little its `lowContrast` (the script says which it judges and why).
public actor WebPage: BridgeAdapter {
    public nonisolated let name = "web"
    public nonisolated let app: String
    nonisolated let url: String
    private let browser: DevToolsPipe
    /// Where the page's screenshot goes before each report (`--screenshots`), or nil.
    private let screenshots: String?
    /// Whether each report carries the page's accessibility snapshot (`--aria-snapshots`).
    private let ariaSnapshots: Bool
    /// The page's tab and its DevTools session, once it is open and loaded.
    private var session: String?
    private var target: String?
    /// Why the page could not be opened the last time, while it is opened again in the background
    /// (`reopening`): a layout meanwhile fails at once with it, where it waited out another load (20 s) and
    /// reached traitd long after the transition's deadline, `missed` instead of `failed`.
    private var openFailure: String?
    private var reopening: Task<Void, Never>?

    public init(app: String, url: String, browser: DevToolsPipe, screenshots: String? = nil, ariaSnapshots: Bool = false) {
        self.app = app
        self.url = url
        self.screenshots = screenshots
        self.ariaSnapshots = ariaSnapshots
        self.browser = browser
    }

    public func stop() async {
        reopening?.cancel()
    }

    public func prepare() async throws -> String {
        _ = try await opened()
        return "\(url) loaded"
    }

    public func layout(_ window: WindowContext) async -> AdapterResult {
        if session == nil, let openFailure {
            reopenInTheBackground()
            return .failed("web: \(url): \(openFailure) (loading it again meanwhile)")
        }
        do {
            let session = try await opened()
            try await emulate(window, session)
            let answer = try await browser.call(
                "Runtime.evaluate", Evaluate(expression: Self.readScript), session: session, returning: Evaluated<PageLayout>.self)
            if let exception = answer.exceptionDetails { throw DevToolsError("the page's script failed: \(exception.text)") }
            guard let page = answer.result.value else { throw DevToolsError("the page returned no layout") }
            let frames = page.frames.mapValues { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
            let kinds = page.kinds.compactMapValues(ElementKind.init(rawValue:))
            var extras: [String: Extra] = [:]
            if let screenshots {
                // The viewport as drawn, at the device's scale (a PNG from Chromium).
                // Two captures alike in a row (Playwright's rule for a stable picture).
                let shot = try await Screenshot.stable {
                    try await self.browser.call("Page.captureScreenshot", ["format": "png"], session: session, returning: Captured.self).data
                }
                guard let png = Data(base64Encoded: shot) else { throw DevToolsError("Page.captureScreenshot gave no PNG") }
                extras[Layout1.Window.Extras.screenshot] = .string(try Screenshot.write([UInt8](png), folder: screenshots, app: app, adapter: name))
            }
            if ariaSnapshots {
                let tree = try await browser.call("Accessibility.getFullAXTree", DevToolsPipe.Empty(), session: session, returning: FullTree.self)
                extras[Layout1.Window.Extras.ariaSnapshot] = .string(AriaSnapshot.yaml(WebAria.nodes(tree.nodes), maximumLines: Self.ariaLines))
            }
            return .laidOut(frames: frames, extras: extras, kinds: kinds, scrolledIn: page.scrolledIn,
                            overflow: page.reflow.map(Overflow.reflow), clippedText: page.clipped, lowContrast: page.lowContrast)
        } catch {
            // The tab may be stuck (a script that never returns, an alert waiting for a person): the next
            // transition gets a new one, and fails with its own reason if the page is stuck again.
            await closeTab()
            return .failed("web: \(url): \(error)")
        }
    }

    /// Closes the page's tab, if one is open, so that the next layout opens the page anew.
    private func closeTab() async {
        guard let target else { return }
        (self.session, self.target) = (nil, nil)
        try? await browser.call("Target.closeTarget", Attach(targetId: target))
    }

    /// `open`, remembering why it failed (`openFailure`), or that it did not.
    private func opened() async throws -> String {
        do {
            let session = try await open()
            openFailure = nil
            return session
        } catch {
            openFailure = "\(error)"
            throw error
        }
    }

    /// Opens the page again while layouts fail at once with why it could not be opened; one attempt at a time.
    private func reopenInTheBackground() {
        guard reopening == nil else { return }
        reopening = Task {
            _ = try? await opened()
            reopening = nil
        }
    }

    /// The page's session: opened in a new tab, navigated to the URL and loaded, the first time. A tab that
    /// fails to get there is closed.
    private func open() async throws -> String {
        if let session { return session }
        do {
            let created = try await browser.call("Target.createTarget", ["url": "about:blank"], returning: Created.self)
            target = created.targetId
            let attached = try await browser.call(
                "Target.attachToTarget", Attach(targetId: created.targetId), returning: Attached.self)
            let session = attached.sessionId
            try await browser.call("Page.enable", DevToolsPipe.Empty(), session: session)
            let loaded = browser.expect("Page.loadEventFired", session: session)
            let navigated = try await browser.call("Page.navigate", ["url": url], session: session, returning: Navigated.self,
                                                   limit: DevToolsPipe.loadLimit)
            if let error = navigated.errorText { throw DevToolsError("cannot load \(url): \(error)") }
            try await browser.wait(for: loaded, "the page's load event")
            self.session = session
            return session
        } catch {
            await closeTab()
            throw error
        }
    }

    /// What the device and its settings say, as a browser on it would tell the page.
    private func emulate(_ window: WindowContext, _ session: String) async throws {
        let traits = window.traits
        try await browser.call("Emulation.setDeviceMetricsOverride", DeviceMetrics(window), session: session)
        try await browser.call("Emulation.setTouchEmulationEnabled", Touch(enabled: true, maxTouchPoints: 5), session: session)
        let dark = traits.display[.appearance] == "dark"
        let highContrast = traits.display[.contrast] == "high"
        try await browser.call("Emulation.setEmulatedMedia", Media(features: [
            .init(name: "prefers-color-scheme", value: dark ? "dark" : "light"),
            .init(name: "prefers-contrast", value: highContrast ? "more" : "no-preference"),
            .init(name: "prefers-reduced-motion", value: window.reduceMotion ? "reduce" : "no-preference"),
        ]), session: session)
        let body = ContentSizeCategory(rawValue: traits.display[.contentSize])?.bodySize ?? ContentSizeCategory.large.bodySize
        try await browser.call("Page.setFontSizes", FontSizes(fontSizes: .init(standard: Int(body.rounded()))), session: session)
        let insets = window.safeArea
        try await browser.call("Emulation.setSafeAreaInsetsOverride", SafeArea(insets: .init(
            top: Int(insets.top.rounded()), left: Int(insets.left.rounded()), bottom: Int(insets.bottom.rounded()),
            right: Int(insets.right.rounded()))), session: session)
        // One locale override at a time: the old one goes first.
        try await browser.call("Emulation.setLocaleOverride", DevToolsPipe.Empty(), session: session)
        if traits.display.isRightToLeft {
            try await browser.call("Emulation.setLocaleOverride", ["locale": "ar"], session: session)
        }
    }


    /// The next rendering of the page (an animation frame, then a task queued from it: by then that frame's
    /// style, layout and resize observers have run at the new size, and a page's own script has answered the
    /// resize), then every rendered element with an id and every control (without an id, by its role and name):
    /// its box, its kind, whether the page scrolls, and the text its elements cut (`clipped-text`).
    /// (`WebBridgeTests` holds a page whose ids are `constructor`, `toString` and `__proto__` to it.)
    static let readScript = """
        new Promise(done => requestAnimationFrame(() => setTimeout(done, 0))).then(() => {
          const valid = /^[A-Za-z0-9_.-]{1,64}$/;
          // A link is a control when it goes somewhere: an <a id> without href is an anchor for a heading.
          const controls = ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY'];
          const media = ['IMG', 'VIDEO', 'CANVAS', 'SVG', 'PICTURE', 'IFRAME', 'svg'];
          const kind = el => controls.includes(el.tagName) || (el.tagName === 'A' && el.hasAttribute('href'))
              || el.getAttribute('role') === 'button' ? 'control'
            : media.includes(el.tagName) ? 'content'
            : el.children.length > 0 ? 'container'
            : (el.textContent || '').trim() ? 'text' : 'content';
          // Maps with no inherited keys: an element whose id is 'constructor' or '__proto__' is an id like any.
          const frames = Object.create(null), kinds = Object.create(null), fixed = [];
          let count = 0;
          // Where the page is drawn in the window: a page wider than its window is zoomed out to fit (the layout
          // viewport grows, the visual one is scaled down), so a box in CSS px is drawn at (box - offset) * scale.
          const vv = visualViewport, scale = vv.scale, root = document.documentElement;
          const drawn = r => [(r.x - vv.offsetLeft) * scale, (r.y - vv.offsetTop) * scale, r.width * scale, r.height * scale];
          const windowWidth = vv.width * scale, windowHeight = vv.height * scale;
          // A control that has no text of its own is what it holds draws (a link around an image: its own box is a
          // line of text around the image, or the image's alt text, drawn larger).
          const box = el => {
            const r = el.getBoundingClientRect();
            if (kind(el) !== 'control' || (el.textContent || '').trim() || !el.children.length) return r;
            let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
            for (const child of el.querySelectorAll('*')) {
              const c = child.getBoundingClientRect();
              if (c.width <= 0 || c.height <= 0) continue;
              [left, top, right, bottom] = [Math.min(left, c.left), Math.min(top, c.top), Math.max(right, c.right), Math.max(bottom, c.bottom)];
            }
            return left < right ? new DOMRect(left, top, right - left, bottom - top) : r;
          };
          // What could be reported, in the page's order: every element with an id, then (below) every control
          // without one; at most 255 are, those the window shows first, then controls, then the rest (a long page
          // of 563 ids, Node's fs.html, once left every control of its header out).
          const candidates = [];
          for (const el of document.querySelectorAll('[id]')) {
            if (!valid.test(el.id) || candidates.length >= 20000) continue;
            const style = getComputedStyle(el);
            if (style.display === 'none' || style.visibility === 'hidden') continue;
            const r = box(el);
            if (r.width <= 0 || r.height <= 0) continue;
            candidates.push({el, name: el.id, frame: drawn(r), kind: kind(el), fixed: style.position === 'fixed'});
          }
          // A control without an id, by its role and accessible name as a person (and Playwright's getByRole)
          // knows it: link:index, button:Copy (characters other than A-Z a-z 0-9 _ - . as _, at most 58, .2 where
          // the name comes again, in the page's order), as the desktop bridge names widgets. Not a link inside
          // running text (WCAG 2.5.8's inline exception: the line decides its size, and a person reads it as
          // text), nor a control moved out of sight on purpose (a skip link at -10000 px, a 1-px "visually
          // hidden" one).
          const roleOf = el => {
            const role = el.getAttribute('role');
            if (role) return role.trim().split(/\\s+/)[0];
            const type = (el.getAttribute('type') || '').toLowerCase();
            switch (el.tagName) {
              case 'A': return 'link';
              case 'BUTTON': case 'SUMMARY': return 'button';
              case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
              case 'TEXTAREA': return 'textbox';
              case 'INPUT':
                return ['button', 'submit', 'reset', 'image'].includes(type) ? 'button'
                  : type === 'checkbox' ? 'checkbox' : type === 'radio' ? 'radio' : type === 'range' ? 'slider'
                  : type === 'search' ? 'searchbox' : 'textbox';
            }
            return 'button';
          };
          const nameText = text => (text || '').replace(/\\s+/g, ' ').trim();
          const accessibleName = el => {
            const label = nameText(el.getAttribute('aria-label'));
            if (label) return label;
            const by = (el.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
              .map(id => document.getElementById(id)).filter(Boolean).map(e => e.textContent).join(' ');
            if (nameText(by)) return nameText(by);
            if (el.labels && el.labels.length) return nameText(el.labels[0].textContent);
            if (el.tagName === 'INPUT') return nameText(el.type === 'image' ? el.alt : ['button', 'submit', 'reset'].includes(el.type) ? el.value : el.placeholder) || nameText(el.title);
            const img = el.querySelector('img[alt]');
            return nameText(el.textContent) || nameText(img && img.alt) || nameText(el.title);
          };
          // Running text: words in the line's block that are not a link's or a button's (a row of links separated
          // by spaces or bars is a navigation bar, not a sentence).
          const inRunningText = el => {
            if (getComputedStyle(el).display !== 'inline') return false;
            let block = el.parentElement;
            while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
            if (!block) return false;
            const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              if (/[\\p{L}\\p{N}]/u.test(n.nodeValue) && !n.parentElement.closest('a[href], button, [role=button], [role=link]')) return true;
            }
            return false;
          };
          const clean = text => text.replace(/[^A-Za-z0-9_.-]/g, '_');
          const roleNames = Object.create(null);
          const page = {width: root.scrollWidth, height: root.scrollHeight};
          for (const el of document.body ? document.body.querySelectorAll(
              'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link]') : []) {
            if (el.id && valid.test(el.id)) continue;
            const style = getComputedStyle(el);
            if (style.display === 'none' || style.visibility !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none') continue;
            if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, contentVisibilityAuto: true})) continue;
            const r = box(el);
            if (r.width <= 1 || r.height <= 1) continue;
            const x = r.x + scrollX, y = r.y + scrollY;
            if (x + r.width <= 0 || y + r.height <= 0 || x >= page.width || y >= page.height) continue;
            if (inRunningText(el)) continue;
            const label = accessibleName(el);
            const base = (clean(roleOf(el)) + (label ? ':' + clean(label) : '')).slice(0, 58);
            roleNames[base] = (roleNames[base] || 0) + 1;
            const name = roleNames[base] === 1 ? base : base.slice(0, 60) + '.' + roleNames[base];
            candidates.push({el, name, frame: drawn(r), kind: 'control', fixed: style.position === 'fixed'});
            if (candidates.length >= 20000) break;
          }
          const shown = c => c.frame[0] < windowWidth && c.frame[1] < windowHeight && c.frame[0] + c.frame[2] > 0 && c.frame[1] + c.frame[3] > 0;
          const rank = c => shown(c) ? 0 : c.kind === 'control' ? 1 : 2;
          const chosen = candidates.map((c, order) => [rank(c), order, c]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          // The name each element is reported by (its id, or a control's role and name), for the extras too.
          const reported = new Map();
          for (const [, , c] of chosen) {
            if (c.name in frames) continue;
            reported.set(c.el, c.name);
            frames[c.name] = c.frame;
            kinds[c.name] = c.kind;
            if (c.fixed) fixed.push(c.name);
            if (++count >= 255) break;
          }
          // An element without an id, by its place: body>main>table.2 is the second table in main, from the
          // nearest ancestor with an id (#notes>ul>li.3).
          const place = el => {
            const parts = [];
            for (let at = el; at && at !== document.documentElement; at = at.parentElement) {
              if (at.id && valid.test(at.id)) { parts.unshift('#' + at.id); break; }
              const same = at.parentElement ? [...at.parentElement.children].filter(c => c.tagName === at.tagName) : [at];
              const name = at.tagName.toLowerCase();
              parts.unshift(same.length > 1 ? name + '.' + (same.indexOf(at) + 1) : name);
            }
            // At most 64 characters, whole steps from the element up, '...>' where the steps before are left out.
            let name = parts.join('>');
            while (parts.length > 1 && name.length > 64) { parts.shift(); name = '...>' + parts.join('>'); }
            return name.slice(-64);
          };
          // An element by the name its frame is reported by, or by its id, or without one its place.
          const nameOf = el => reported.get(el) || (el.id && valid.test(el.id) ? el.id : place(el));
          // The elements that hold text themselves (a text node of their own), in the page's order: what both
          // text checks below look at, found in one walk.
          const texts = [];
          for (const el of document.body ? document.body.querySelectorAll('*') : []) {
            for (let n = el.firstChild; n; n = n.nextSibling) {
              if (n.nodeType === 3 && n.nodeValue.trim() !== '') { texts.push(el); break; }
            }
          }
          // Text cut by its element (an ellipsis, a clipped edge, lines clamped) or by a container that hides what
          // overflows it. Only elements that hold text themselves, and buttons whose text is their value, drawn;
          // not those a person scrolls (overflow auto or scroll), nor text hidden on purpose (a 1-px "visually
          // hidden" label, a clip or clip-path, text wholly outside its container). At most 32, the first in the page.
          const clippedText = Object.create(null);
          let clips = 0;
          // The nearest ancestor (within 8) that cuts what overflows it, and how (a scroll view is not: a person
          // scrolls it).
          const clipper = el => {
            for (let at = el.parentElement, n = 0; at && at !== document.body && n < 8; at = at.parentElement, n++) {
              const style = getComputedStyle(at);
              const cuts = v => v === 'hidden' || v === 'clip';
              if (cuts(style.overflowX) || cuts(style.overflowY)) return {at, x: cuts(style.overflowX), y: cuts(style.overflowY)};
              if (style.overflowX !== 'visible' || style.overflowY !== 'visible') return null;
            }
            return null;
          };
          // Buttons whose text is their value (an <input type=submit>: Python's "Go").
          const valued = document.body ? [...document.body.querySelectorAll('input[type=submit], input[type=button], input[type=reset]')]
            .filter(el => (el.value || '').trim()) : [];
          for (const el of texts.concat(valued)) {
            if (clips >= 32) break;
            const style = getComputedStyle(el);
            if (style.display === 'none' || style.display === 'contents' || style.visibility === 'hidden') continue;
            if (style.clip !== 'auto' || style.clipPath !== 'none') continue;
            let cut = null, width = 0, height = 0;
            // Cut by its own box: an ellipsis, lines clamped, overflow hidden.
            const [cw, ch, sw, sh] = [el.clientWidth, el.clientHeight, el.scrollWidth, el.scrollHeight];
            const scrolled = v => v === 'auto' || v === 'scroll';
            if (style.display !== 'inline' && cw > 2 && ch > 2 && !scrolled(style.overflowX) && !scrolled(style.overflowY)) {
              const wider = style.overflowX !== 'visible' && sw > cw + 1, taller = style.overflowY !== 'visible' && sh > ch + 1;
              const clamp = style.webkitLineClamp;
              cut = style.textOverflow === 'ellipsis' && wider ? 'ellipsized'
                : clamp && clamp !== 'none' && sh > ch + 1 ? 'clamped'
                : wider || taller ? 'clipped' : null;
              [width, height] = [sw, sh];
            }
            // Cut by a container that hides what overflows it: the text shows in part (not wholly outside it,
            // which is hidden on purpose, a slide of a carousel).
            const r = el.getBoundingClientRect();
            const box = !cut && r.width > 2 && r.height > 2 ? clipper(el) : null;
            if (box) {
              const c = box.at.getBoundingClientRect();
              const [left, top] = [c.left + box.at.clientLeft, c.top + box.at.clientTop];
              const [right, bottom] = [left + box.at.clientWidth, top + box.at.clientHeight];
              const partly = r.right > left && r.left < right && r.bottom > top && r.top < bottom;
              const past = (box.x && (r.left < left - 1 || r.right > right + 1)) || (box.y && (r.top < top - 1 || r.bottom > bottom + 1));
              if (partly && past) [cut, width, height] = ['clipped', r.width, r.height];
            }
            if (!cut) continue;
            clippedText[nameOf(el)] = {cut, width: width * scale, height: height * scale};
            clips++;
          }
          // Text that stands out too little from its background (WCAG 1.4.3: 4.5:1, 3:1 for text of 24 px or
          // 18.66 px bold). Its colour against the background its ancestors' background colours lay over the
          // canvas; judged only where colours decide it: not text over a background image or gradient, under an
          // element that is not its ancestor (a hero picture beneath it), under opacity, a filter or a blend mode,
          // with a shadow or a stroke, nor a disabled control's (WCAG exempts them), nor a colour other than
          // rgb()/rgba(). At most 32, the first in the page.
          const lowContrast = Object.create(null);
          const rgba = c => {
            if (!(c.startsWith('rgb(') || c.startsWith('rgba(')) || !c.endsWith(')')) return null;
            const p = c.slice(c.indexOf('(') + 1, -1).split(/[ ,/]+/).filter(Boolean).map(Number);
            return p.length >= 3 && p.every(v => isFinite(v)) ? [p[0], p[1], p[2], p.length > 3 ? p[3] : 1] : null;
          };
          const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
          const luminance = c => {
            const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const darkCanvas = getComputedStyle(root).colorScheme.includes('dark') && matchMedia('(prefers-color-scheme: dark)').matches;
          const canvas = darkCanvas ? [18, 18, 18, 1] : [255, 255, 255, 1];
          // The background behind `el`, or null where the colours alone do not tell it; each element's once (a
          // long page's text shares its ancestors: walking them for each cost 0.6 s a layout on Python's
          // functions.html).
          const backgrounds = new Map();
          const background = el => {
            if (!el) return canvas;
            if (backgrounds.has(el)) return backgrounds.get(el);
            const style = getComputedStyle(el);
            const plain = style.backgroundImage === 'none' && style.opacity === '1' && style.filter === 'none'
              && style.mixBlendMode === 'normal' && (!style.backdropFilter || style.backdropFilter === 'none');
            const colour = plain ? rgba(style.backgroundColor) : null;
            const under = colour ? background(el.parentElement) : null;
            const result = under ? (colour[3] === 0 ? under : over(colour, under)) : null;
            backgrounds.set(el, result);
            return result;
          };
          let lows = 0;
          for (const el of texts) {
            if (lows >= 32) break;
            const r = el.getBoundingClientRect();
            if (r.width <= 2 || r.height <= 2) continue;
            const style = getComputedStyle(el);
            if (style.visibility !== 'visible' || style.textShadow !== 'none' || parseFloat(style.webkitTextStrokeWidth) > 0) continue;
            const text = rgba(style.color);
            if (!text || text[3] === 0) continue;
            if (el.closest('svg, [aria-hidden="true"], [disabled], [aria-disabled="true"]')) continue;
            // Under it at its middle (where the window shows it): only itself, its ancestors and what it holds.
            const x = r.x + r.width / 2, y = r.y + r.height / 2;
            if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight
                && document.elementsFromPoint(x, y).some(e => e !== el && !e.contains(el) && !el.contains(e))) continue;
            const behind = background(el);
            if (!behind) continue;
            const drawn = over(text, behind);
            const [l1, l2] = [luminance(drawn), luminance(behind)].sort((p, q) => q - p);
            const ratio = (l1 + 0.05) / (l2 + 0.05);
            const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight, 10) >= 700;
            const required = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
            if (ratio >= required) continue;
            lowContrast[nameOf(el)] = {ratio, required};
            lows++;
          }
          // Taller than the window: it scrolls, whether or not it is also too wide (that is `reflow`, below).
          const scrolls = root.scrollHeight > innerHeight + 1 && !('viewport' in frames);
          const scrolledIn = Object.create(null);
          if (scrolls) {
            for (const id of Object.keys(frames)) if (!fixed.includes(id)) scrolledIn[id] = 'viewport';
            frames.viewport = [0, 0, windowWidth, windowHeight];
            kinds.viewport = 'container';
          }
          // Wider than the window it was given (zoomed out, or scrolling sideways): the page's width, and its
          // widest element, by its id or else its place (body>main>table.2: the second table in main).
          let reflow = null;
          const width = Math.max(root.scrollWidth, innerWidth);
          if (width > windowWidth + 1) {
            let widest = null, most = 0;
            for (const el of document.body ? document.body.querySelectorAll('*') : []) {
              const w = el.getBoundingClientRect().width;
              if (w > most) { most = w; widest = el; }
            }
            reflow = {element: widest ? place(widest) : 'body', width};  // CSS px: the points it needs across
          }
          return {frames, kinds, scrolledIn, reflow, clippedText, lowContrast};
        })
        """

    // MARK: The commands' parameters and answers

    private struct Evaluate: Encodable {
        let expression: String
        let awaitPromise = true
        let returnByValue = true
    }

    private struct Evaluated<Value: Decodable>: Decodable {
        struct Remote: Decodable { let value: Value? }
        struct Exception: Decodable { let text: String }
        let result: Remote
        let exceptionDetails: Exception?
    }

    private struct PageLayout: Decodable {
        let frames: [String: [Double]]
        let kinds: [String: String]
        let scrolledIn: [String: String]
        /// As the script returns it: `{element, width}`.
        let reflow: Reflow?
        /// As the script returns it: element -> `{cut, width, height}`.
        let clippedText: [String: Clip]
        /// As the script returns it: element -> `{ratio, required}`, the vocabulary's fields.
        let lowContrast: [String: LowContrast]

        struct Clip: Decodable {
            let cut: ClippedText.Cut
            let width: Double
            let height: Double
        }

        /// `clippedText` as the vocabulary's values.
        var clipped: [String: ClippedText] {
            clippedText.mapValues { ClippedText(cut: $0.cut, needed: Size(width: $0.width, height: $0.height)) }
        }
    }

    private struct Created: Decodable { let targetId: String }
    private struct FullTree: Decodable { let nodes: [WebAria.AXNode] }
    /// The most lines a report's accessibility snapshot has (about 16 KiB: a report is at most 64 KiB).
    static let ariaLines = 400
    private struct Captured: Decodable { let data: String }
    private struct Attach: Encodable {
        let targetId: String
        let flatten = true
    }
    private struct Attached: Decodable { let sessionId: String }
    private struct Navigated: Decodable { let errorText: String? }

    private struct DeviceMetrics: Encodable {
        struct ScreenOrientation: Encodable {
            let type: String
            let angle: Int
        }
        let width: Int
        let height: Int
        let deviceScaleFactor: Double
        let mobile = true
        let screenWidth: Int
        let screenHeight: Int
        let screenOrientation: ScreenOrientation

        init(_ window: WindowContext) {
            width = Int(window.width.rounded())
            height = Int(window.height.rounded())
            deviceScaleFactor = window.traits.displayScale
            screenWidth = Int(window.screenWidth.rounded())
            screenHeight = Int(window.screenHeight.rounded())
            switch window.orientation {
            case .portrait: screenOrientation = .init(type: "portraitPrimary", angle: 0)
            case .landscapeLeft: screenOrientation = .init(type: "landscapePrimary", angle: 90)
            case .portraitUpsideDown: screenOrientation = .init(type: "portraitSecondary", angle: 180)
            case .landscapeRight: screenOrientation = .init(type: "landscapeSecondary", angle: 270)
            }
        }
    }

    private struct Touch: Encodable {
        let enabled: Bool
        let maxTouchPoints: Int
    }

    private struct Media: Encodable {
        struct Feature: Encodable {
            let name: String
            let value: String
        }
        let features: [Feature]
    }

    private struct FontSizes: Encodable {
        struct Sizes: Encodable { let standard: Int }
        let fontSizes: Sizes
    }

    private struct SafeArea: Encodable {
        struct Insets: Encodable {
            let top: Int
            let left: Int
            let bottom: Int
            let right: Int
        }
        let insets: Insets
    }
}
