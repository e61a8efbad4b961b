import MovieCatalog
import MovieCLI

/// libFuzzer target 'tsv' (see Fuzz/README.md).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    FuzzEntry.delimited(bytes, tsv: true)
    return 0
}
