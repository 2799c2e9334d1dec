import Foundation

/// Settings for a whole command-line process (the tool, the benchmark), never made by the library on
/// its own: a program that uses it keeps its allocator as it is.
public enum ProcessTuning {
    /// A command-line run exits soon after its work: the syntax trees, the index and the readings it
    /// made are left to the operating system at exit instead of being freed object by object, on one
    /// thread, after the last stage. Not for a process that runs more than one extraction (tests, an
    /// editor): what each run made would stay.
    public static func leaveMemoryToExit() {
        kept.lock.lock()
        kept.enabled = true
        kept.lock.unlock()
    }

    /// Keeps `object` until the process exits, when `leaveMemoryToExit()` was called; else nothing.
    static func keepUntilExit(_ object: Any) {
        kept.lock.lock()
        if kept.enabled { kept.objects.append(object) }
        kept.lock.unlock()
    }

    private final class Kept: @unchecked Sendable {
        let lock = NSLock()
        var enabled = false
        var objects: [Any] = []
    }
    private static let kept = Kept()

    /// glibc's malloc grows its heaps a few pages at a time and gives memory back as soon as the top
    /// of a heap is free. With every syntax tree of a code base alive that is a system call every few
    /// allocations: `lint` on the TCA repository spent a fifth of its time in the kernel (`mprotect`,
    /// `brk`), a parse-only walk a quarter. Growing and keeping 64 MiB at a time halves that; resident
    /// memory counts only the pages written, so peak RSS stays the same.
    public static func growHeapsInLargeSteps() {
        #if os(Linux)
        _ = glibcMallopt(glibcTopPad, 64 << 20)
        #endif
    }
}

#if os(Linux)
/// `mallopt(3)` and `M_TOP_PAD` from glibc's `<malloc.h>`, which the Glibc module does not import.
@_silgen_name("mallopt") private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
private let glibcTopPad: Int32 = -2
#endif
