import CKSchema
import Foundation

// usage: diffbench FROM TO [RUNS]
// Prints one line of thread CPU seconds: load (both files), lint, diff and plan (median;
// the plan includes the diff and both canonical hashes), and one side's emit and SHA-256.
let args = CommandLine.arguments
guard args.count >= 3 else {
    FileHandle.standardError.write(Data("usage: diffbench FROM TO [RUNS]\n".utf8))
    exit(2)
}
let runs = args.count > 3 ? Int(args[3]) ?? 9 : 9

/// CPU seconds of this thread: steadier than wall time on a shared machine.
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func seconds(_ body: () -> Void) -> Double {
    let start = cpuNow()
    body()
    return cpuNow() - start
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

do {
    var from = Schema(), to = Schema()
    let load = seconds {
        from = try! SchemaSource.load(path: args[1])
        to = try! SchemaSource.load(path: args[2])
    }
    var changes = 0
    let diff = median((0..<runs).map { _ in seconds { changes = SchemaDiff.compute(from: from, to: to).changes.count } })
    let plan = median((0..<runs).map { _ in seconds { _ = PromotionPlan.compute(from: from, to: to) } })
    let bare = median((0..<runs).map { _ in seconds { _ = PromotionPlan.compute(from: from, to: to, hashing: false) } })
    let emit = median((0..<runs).map { _ in seconds { _ = to.canonicalYAML } })
    let text = to.canonicalYAML
    let sha = median((0..<runs).map { _ in seconds { _ = SHA256.hex(text) } })
    let lint = median((0..<3).map { _ in seconds { _ = Linter().lint(to) } })
    print(String(format: "types=%d changes=%d load=%.4f lint=%.4f diff=%.4f plan_nohash=%.4f plan=%.4f emit_one=%.4f sha_one=%.4f (%d bytes)", to.recordTypes.count, changes, load, lint, diff, bare, plan, emit, sha, text.utf8.count))
}
