#if canImport(Glibc)
import Glibc
#endif

/// A process's resident and peak memory, from `/proc/PID/status` (`VmRSS`, `VmHWM`), in KiB; zeros when the
/// process is gone. The churn tool, the transition benchmark and the soak tests read memory the same way.
public struct ProcessMemory: Sendable {
    public var residentKiB: Int
    public var peakKiB: Int

    public var residentMiB: Double { Double(residentKiB) / 1024 }
    public var peakMiB: Double { Double(peakKiB) / 1024 }

    public init(residentKiB: Int = 0, peakKiB: Int = 0) {
        self.residentKiB = residentKiB
        self.peakKiB = peakKiB
    }

    /// `pid` nil: this process.
    public static func read(pid: Int32? = nil) -> ProcessMemory {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let file = fopen(path, "r") else { return ProcessMemory(residentKiB: 0, peakKiB: 0) }
        defer { fclose(file) }
        var memory = ProcessMemory(residentKiB: 0, peakKiB: 0)
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            if fields[0] == "VmRSS:" { memory.residentKiB = kib }
            if fields[0] == "VmHWM:" { memory.peakKiB = kib }
        }
        return memory
    }
}
