import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `MACHINE_VIZ_TIMING=1`: each stage's wall time, the process's CPU time (all threads) and its resident
/// memory at the stage's end on stderr, for attribution only (docs/benchmark.md); with `--jobs 1` the
/// CPU time is the stage's own.
public struct StageTimer {
    public static let enabled = ProcessInfo.processInfo.environment["MACHINE_VIZ_TIMING"] != nil
    private var wall = Date()
    private var cpu = StageTimer.processCPU()

    public init() {}

    /// Reports the time since the previous stage (or since `init`) under `name`.
    public mutating func stage(_ name: String) {
        guard Self.enabled else { return }
        let now = Date(), nowCPU = Self.processCPU()
        FileHandle.standardError.write(Data(String(format: "%@: %.3fs wall, %.3fs cpu, %@ resident\n", name, now.timeIntervalSince(wall),
                                                   nowCPU - cpu, Self.residentMemory()).utf8))
        wall = now
        cpu = nowCPU
    }

    /// `VmRSS` of `/proc/self/status` (Linux), else "?".
    static func residentMemory() -> String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kB = Int(line.split(separator: " ").dropFirst().first ?? "") else { return "?" }
        return "\(kB / 1024) MiB"
    }

    static func processCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
