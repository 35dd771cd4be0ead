import CFuzzDriver
import Foundation

/// The `main` of every fuzz target. Built for fuzzing (`make fuzz`), it hands the target to libFuzzer, which
/// takes libFuzzer's options (`-max_total_time=30 corpus/`). Built normally (`swift build`), it replays the
/// files and folders it is given through the target once each, so that a crash input found by the fuzzer
/// (or the seed corpus) can be rerun and debugged without the fuzzing runtime.
public enum FuzzTarget {
    /// A target's `LLVMFuzzerTestOneInput`: it must never crash, hang or leak, whatever the bytes; it traps
    /// (`preconditionFailure`) when an invariant it checks is broken, which libFuzzer reports as a finding.
    public typealias Entry = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    public static func main(_ entry: Entry) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = traitd_run_fuzzer(&argc, &argv, entry)
        if status >= 0 { exit(status) }
        exit(replay(Array(CommandLine.arguments.dropFirst()), entry))
    }

    /// The bytes libFuzzer hands a target.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    }

    /// Runs every file (and every file in every folder) through the target; returns 0, or 66 for a path
    /// that cannot be read.
    static func replay(_ paths: [String], _ entry: Entry) -> Int32 {
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(CommandLine.arguments[0]) FILE|DIR... (replays inputs; `make fuzz` fuzzes)\n".utf8))
            return 64
        }
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(path): no such file or directory\n".utf8))
                return 66
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { entry($0.baseAddress, $0.count) }
        }
        print("replayed \(files.count) input(s) through \(CommandLine.arguments[0].split(separator: "/").last!): no crash")
        return 0
    }

    /// The input as text (lossy: invalid UTF-8 becomes U+FFFD, as a file read by the daemon would).
    public static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
