import CDBus
import Glibc

/// Starts a detached thread named `name` (at most 15 bytes are kept, the kernel's limit) that runs `body`.
func startThread(name: String, _ body: @escaping () -> Void) {
    final class Start {
        let name: String
        let body: () -> Void
        init(_ name: String, _ body: @escaping () -> Void) { (self.name, self.body) = (name, body) }
    }
    let start = Unmanaged.passRetained(Start(String(name.utf8.prefix(15))!, body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { raw in
        let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
        cdbus_name_this_thread(start.name)
        start.body()
        return nil
    }, start)
    guard status == 0 else { fatalError("traitd: cannot start a thread: \(String(cString: strerror(status)))") }
    pthread_detach(thread)
}
