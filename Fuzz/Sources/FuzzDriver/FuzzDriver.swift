#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's driver (`-sanitize=fuzzer` links it). SwiftPM gives every executable its own
/// entry point (`<Target>_main`), so a target cannot rely on libFuzzer's `main`: each calls
/// this from its `main.swift` with its test function.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// Runs libFuzzer over `test` with this process's arguments and exits with its status.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
