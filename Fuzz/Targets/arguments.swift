import MovieCatalog
import MovieCLI

/// libFuzzer target 'arguments' (see Fuzz/README.md).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    FuzzEntry.arguments(bytes)
    return 0
}
