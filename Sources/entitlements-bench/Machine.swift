import Foundation

/// What the benchmark ran on, and how much memory a process has used.
enum Machine {
    /// `2 cores, AMD EPYC 7R13 Processor` (from `/proc/cpuinfo` where there is one).
    static var description: String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let model =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let memory = ProcessInfo.processInfo.physicalMemory >> 20
        return "\(cores) cores, \(model), \(memory) MiB RAM"
    }

    /// CPU time (user + system) this process has used, in seconds: steadier than wall time when other
    /// work shares the machine.
    static var cpuSeconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The 1-minute load average (`/proc/loadavg`): how busy the machine was.
    static var loadAverage: String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init)
            ?? "?"
    }

    /// This process's peak resident set in KiB: `VmHWM` in `/proc/self/status`, else `getrusage`.
    static var peakResidentKiB: Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        {
            return value
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss)
    }
}
