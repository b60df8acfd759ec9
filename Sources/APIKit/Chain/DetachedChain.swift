/// The rest of a call's chain after one link, for that link's work that may outlive the call:
/// a background revalidation of ``HTTPCache``.
///
/// A link's `next` belongs to its call and is not escaping: it ends in the call's terminal
/// stage — a send, a stream or a download, with the caller's progress, the call's resource
/// timeout and cancellation, and its events —, and once the call has returned its outcome
/// that stage must not run again (a failure would read as the call's cancellation, a download
/// would write to its destination anew). A detached send is a call of its own instead: the
/// same links after this one, in the same order, down to a terminal that reads the body whole
/// through the session's transport, with no progress and no cancellation but its task's; in the
/// session's events and log it is a call of its own (the call's have ended or are the call's).
struct DetachedChain: Sendable {
    /// The call's chain.
    let chain: CallChain
    /// The link whose work this is: its `next` would have run the links after it.
    let index: Int

    /// Sends `urlRequest` through the links after ``index`` to the detached terminal, as one
    /// call: its attempts are counted apart from the call's.
    ///
    /// - Parameter urlRequest: The request, checked for framing headers as `next` checks it.
    /// - Returns: The response, its body read whole.
    /// - Throws: The ``RequestError`` of a link, of the transport, or of a framing header.
    func send(_ urlRequest: URLRequest) async throws(RequestError) -> CallResponse {
        let chain = chain
        guard let transport = chain.detachedTransport else {
            throw .cancelled(context: chain.context(urlRequest.url, 1))
        }
        let context: @Sendable (URL?, Int) -> RequestContext = { url, attempts in
            chain.context(url, attempts).with(events: nil).with(bodyDelivery: .whole)
        }
        let events = chain.detachedEvents?(context(urlRequest.url, 1))
        let rest = CallChain(
            links: Array(chain.links[(index + 1)...]),
            context: context,
            rejection: chain.rejection,
            events: events,
            detachedTransport: transport,
            detachedEvents: chain.detachedEvents,
            terminal: Self.terminal(sendingThrough: transport, context: context))
        do {
            try urlRequest.checkFraming(
                source: CallChain.source(of: chain.links[index]), context: rest.context(urlRequest.url, 1))
            let response = try await rest.run(urlRequest)
            events?.observeBody(of: response)
            events?.end(Result<Void, RequestError>.success(()))
            return response
        } catch {
            events?.end(Result<Void, RequestError>.failure(error))
            throw error
        }
    }

    /// The terminal stage of a detached send: `transport`, the body read whole, no progress or
    /// resource timeout of the call's, and an error that is a cancellation only when its own
    /// task was cancelled. Made only when a link sends: a call pays nothing for it.
    private static func terminal(
        sendingThrough transport: any Transport, context: @escaping @Sendable (URL?, Int) -> RequestContext
    ) -> CallChain.Terminal {
        { urlRequest, attempt throws(RequestError) in
            do {
                let response = try await transport.send(urlRequest)
                return CallResponse(urlResponse: response.urlResponse, data: response.data)
            } catch {
                let failed = context(urlRequest.url, attempt)
                throw Task.isCancelled ? .cancelled(context: failed) : .transportFailed(error, context: failed)
            }
        }
    }
}
