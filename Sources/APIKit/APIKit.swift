// A file that imports APIKit needs nothing else: the parsers, Foundation and,
// on Linux, FoundationNetworking (URLSession, URLRequest) come with it.
@_exported public import APIKitParsers
@_exported public import Foundation

#if canImport(FoundationNetworking)
    @_exported public import FoundationNetworking
#endif
