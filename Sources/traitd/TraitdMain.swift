import Dispatch

/// The process's entry point: runs ``Traitd`` on the global executor while the main thread waits for it.
///
/// Why not `@main` on the `AsyncParsableCommand` itself: an async `main` hands the main thread to
/// `dispatch_main()`, which leaves it with `pthread_exit`. That unwinds the main thread's stack through libgcc's
/// unwinder, which binary-searches the whole unwind table: 0.6 MiB of the binary's
/// `.eh_frame` pages that then stay resident for the daemon's whole life, a twentieth of its idle size (docs/measurements.md,
/// "Memory"). Nothing in traitd runs on the main actor, so the main thread has nothing else to do than wait.
@main
enum TraitdMain {
    static func main() {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            // Parses the options, runs the daemon, and exits with the command's exit code on an error.
            await Traitd.main()
            finished.signal()
        }
        finished.wait()
    }
}
