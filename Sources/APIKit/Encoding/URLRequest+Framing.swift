import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// The first header of this request that frames the message (Content-Length,
    /// Transfer-Encoding and the others of ``HTTPSyntax/framingHeaderNames``), which only the
    /// transport may set; `nil` when it has none.
    ///
    /// Every header is read, every time: a hook that seems to have returned its request
    /// unchanged is checked like any other. Telling "unchanged" apart would mean trusting how
    /// Foundation stores a `URLRequest`, which no API promises, to skip a look-up that costs
    /// a few dozen instructions a header.
    func firstFramingHeader() -> String? {
        HTTPSyntax.firstFramingHeader(in: allHTTPHeaderFields)
    }

    /// Fails when this request has a framing header: the stage that ran last (`source`) added
    /// it, as every earlier one was checked.
    func checkFraming(
        source: @autoclosure () -> HeaderSource, context: @autoclosure () -> RequestContext
    ) throws(RequestError) {
        guard let name = firstFramingHeader() else { return }
        throw .buildFailed(.framingHeader(name, source: source()), context: context())
    }
}
