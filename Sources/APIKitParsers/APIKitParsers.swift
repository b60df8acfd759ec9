// A file that imports APIKitParsers needs nothing else: Foundation (Data, JSONDecoder,
// String.Encoding in the parsers' signatures) comes with it, as it does with APIKit.
@_exported public import Foundation
