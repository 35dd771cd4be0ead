import Foundation
import TestSupport

@testable import Bridges

/// A report opened in headless Chromium (Debian's, through the web bridge's DevTools pipe), as a person opens
/// it: from `file://`, its errors caught from the first script on (uncaught exceptions, `console.error`, images
/// and other files that fail to load), its DOM asked with JavaScript, its pixels captured.
final class ReportBrowser: Sendable {
    let browser: DevToolsPipe
    let session: String

    /// Opens `url` in a tab 1280 x 900 px wide and waits for its load event.
    init(_ url: String, log: String) async throws {
        browser = try DevToolsPipe(log: log)
        do {
            let created = try await browser.call("Target.createTarget", ["url": "about:blank"], returning: Target.self)
            session = try await browser.call("Target.attachToTarget", Attach(targetId: created.targetId, flatten: true), returning: Session.self).sessionId
            try await browser.call("Page.enable", DevToolsPipe.Empty(), session: session)
            try await browser.call("Emulation.setDeviceMetricsOverride", Metrics(width: 1280, height: 900, deviceScaleFactor: 1, mobile: false), session: session)
            try await browser.call("Page.addScriptToEvaluateOnNewDocument", ["source": Self.errorCatcher], session: session)
            let loaded = browser.expect("Page.loadEventFired", session: session)
            try await browser.call("Page.navigate", ["url": url], session: session)
            try await browser.wait(for: loaded, "the report's load event")
        } catch {
            browser.close()
            throw error
        }
    }

    /// Every error of the page since it started: thrown and not caught, written to `console.error`, or a file
    /// (an image, a script) that did not load (`error` events, caught as they pass the window).
    static let errorCatcher = """
        window.__errors = [];
        addEventListener('error', e => __errors.push(e.message || ('cannot load ' + (e.target && (e.target.src || e.target.href)))), true);
        addEventListener('unhandledrejection', e => __errors.push('unhandled rejection: ' + e.reason));
        const consoleError = console.error.bind(console);
        console.error = (...args) => { __errors.push(args.join(' ')); consoleError(...args); };
        """

    /// The value of `expression` (a JSON-able value; a promise is awaited).
    func evaluate<Value: Decodable>(_ expression: String, as: Value.Type = Value.self) async throws -> Value {
        let answer = try await browser.call("Runtime.evaluate", Evaluate(expression: expression), session: session, returning: Evaluated<Value>.self)
        if let exception = answer.exceptionDetails { throw TestFailure("the report's page threw: \(exception.text) (\(expression))") }
        guard let value = answer.result.value else { throw TestFailure("\(expression) gave no value") }
        return value
    }

    /// The page's errors so far, and the images that are not drawn (not loaded, or of no size).
    func problems() async throws -> [String] {
        try await evaluate("""
            __errors.concat([...document.images].filter(i => i.complete && i.naturalWidth === 0 && i.getAttribute('src'))
                .map(i => 'missing image ' + i.getAttribute('src')))
            """)
    }

    /// Goes to `hash` (`#run=ID`) and waits for the viewer to have drawn it (two animation frames).
    func show(_ hash: String) async throws {
        let _: Bool = try await evaluate("""
            new Promise(done => { location.hash = \(Self.literal(hash)); requestAnimationFrame(() => requestAnimationFrame(() => done(true))); })
            """)
    }

    /// The tab's pixels, as PNG.
    func screenshot() async throws -> [UInt8] {
        let shot = try await browser.call("Page.captureScreenshot", ["format": "png"], session: session, returning: Captured.self)
        guard let png = Data(base64Encoded: shot.data) else { throw TestFailure("Page.captureScreenshot gave no PNG") }
        return [UInt8](png)
    }

    func close() { browser.close() }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    private struct Target: Decodable { let targetId: String }
    private struct Attach: Encodable { let targetId: String; let flatten: Bool }
    private struct Session: Decodable { let sessionId: String }
    private struct Metrics: Encodable { let width: Int; let height: Int; let deviceScaleFactor: Double; let mobile: Bool }
    private struct Captured: Decodable { let data: String }
    private struct Evaluate: Encodable {
        let expression: String
        var returnByValue = true
        var awaitPromise = true
    }
    private struct Evaluated<Value: Decodable>: Decodable {
        struct Result: Decodable { let value: Value? }
        struct Exception: Decodable { let text: String }
        let result: Result
        let exceptionDetails: Exception?
    }
}
