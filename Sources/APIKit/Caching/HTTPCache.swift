/// A private HTTP cache following RFC 9111: an ``Interceptor`` for ``Session/interceptors``
/// that answers from what it stored when it may, asks the server to validate what went stale,
/// and stores what the server allows.
///
/// **Answers from the cache.** A `GET` whose stored response is fresh (`max-age`, `Expires`,
/// or 10% of the time since `Last-Modified` for a response without either, on a URL without a
/// query) is answered without calling `next`, with an `Age` header. The request's own
/// `Cache-Control` is followed: `max-age`, `min-fresh`, `max-stale`, `no-cache` (and
/// `Pragma: no-cache`), `no-store` (nothing stored) and `only-if-cached`, which fails the call
/// with ``RequestError/notCached(context:)`` when nothing usable is stored, without sending it.
/// A response with `no-cache` or `must-revalidate` is never used stale.
///
/// **Validation.** A stale response with an `ETag` or a `Last-Modified` is validated: the
/// request is sent with `If-None-Match` or `If-Modified-Since`; a `304 Not Modified` updates
/// the stored head and the call receives the stored body with it. A `304` whose `ETag` (or,
/// without one, `Last-Modified`) is not the stored response's updates nothing: the request is
/// sent again, unconditionally (in the background of `stale-while-revalidate`, the store stays
/// as it was). Any other answer is the call's, and replaces the stored one when it may be
/// stored. A request that carries its own conditional or `Range` header is passed on untouched.
///
/// **Stale while revalidating** (RFC 5861 §3). A response stale by no more than its
/// `stale-while-revalidate=N` answers the call at once (`Cache-Status: APIKit; hit; ttl=-5;
/// detail=stale-while-revalidate`), and the cache validates it in the background: one request
/// at a time per stored response, sent through the links listed after the cache in
/// ``Session/interceptors`` down to the session's transport, as a call of its own (no events,
/// progress or retries of the call that started it; cancelling that call does not cancel it).
/// Its `304` or new response updates the store for the calls that follow; its failure — no
/// answer, or a 500, 502, 503 or 504 — leaves the store as it was. Not for a response with
/// `must-revalidate` or `no-cache`, nor for a request with `no-cache`, `max-age` or
/// `min-fresh`: those are validated before the call returns.
///
/// **When the server fails** (RFC 5861 §4). When the request that validates or replaces a
/// stale response cannot reach the server (``RequestError/transportFailed(_:context:)``), or is
/// answered 500, 502, 503 or 504, the stale response answers the call if it is stale by no more
/// than the request's `Cache-Control: stale-if-error=N` or, without one, the response's; the
/// error response is not stored. A response with `must-revalidate` or `no-cache` is never
/// served this way, nor to a request with `no-cache` and no `stale-if-error`, nor to a
/// cancelled call.
///
/// **Collapsing** (off by default: ``init(store:collapsesRequests:answersStreamsAndDownloads:)``). With
/// `collapsesRequests`, a `GET` that must go to the server while an identical one (same URL,
/// same `Authorization`) is already waiting for it waits for that call, and is answered with
/// the stored copy of its response when it selects and may reuse it
/// (`Cache-Status: APIKit; fwd=miss; collapsed`, or `fwd=stale` when the copy it waited for
/// was stale); otherwise — the first call failed, was cancelled, or its response may not be
/// stored — it sends its own request.
///
/// **What is stored.** A whole response to a `GET` — a body the call read in memory, not a
/// stream's or a download's — with a status that is cacheable by default (200, 203, 204, 300,
/// 301, 308, 404, 405, 410, 414, 501) or explicit freshness, without `no-store` on either side.
/// This is a private cache: `private` responses, and responses to requests with
/// `Authorization`, are stored. Each `Vary` of a URL is a variant of its own, selected by the
/// request headers `Vary` names (compared after trimming the elements of their lists), and
/// every response is kept apart by the `Authorization` it was fetched with (as a digest, never
/// in clear): one user's response is never served to another. `Vary: *` is never stored, nor
/// is a response varying on `Cookie` to a request without a `Cookie` of its own (the transport
/// may add cookies from its storage, which the cache does not see). A
/// response whose URL is not the request's — where a redirect the transport followed led — is
/// neither stored nor used to update a stored response (RFC 9111 §4): it answers another URL,
/// and the cache never saw the redirect nor its freshness. A response without a `Date` (or with
/// one that is not a date) is stored with one, the second it was received in (RFC 9110
/// §6.6.1), as is a stored response freshened by a `304` or a `HEAD` that sends no `Date` of
/// its own: a response the cache stores carries a `Date`.
///
/// **`HEAD`** (RFC 9111 §4, §4.3.5). A `HEAD` is answered with the head of the stored `GET`
/// response it selects while that may be reused, with no body (`Cache-Status: APIKit; hit`);
/// otherwise it is sent on as a `HEAD`. A `200` to it updates each stored `GET` response the
/// request selects: one whose validators (`ETag`, `Last-Modified`) and `Content-Length` agree
/// with the `HEAD`'s takes its header fields and is fresh again as after a `304`; one that
/// disagrees is removed, and the next `GET` goes to the server. A `HEAD`'s response is never
/// stored. A `HEAD` with its own conditional or `Range` header is passed on untouched.
///
/// **Invalidation.** A response that is not an error (below 400) to any method other than
/// `GET`, `HEAD`, `OPTIONS` and `TRACE` removes what is stored for its URL, and for the URLs
/// of its `Location` and `Content-Location` on the same origin. A `GET` or `HEAD` of one of
/// those URLs under way meanwhile — its request sent before the removal ended — stores and
/// updates nothing: its response may show the resource as it was before the change, and its
/// write would bring back what was removed.
///
/// **Telling what came from the cache.** A response built from what the cache stored carries
/// a `Cache-Status` header (RFC 9211) ending with `APIKit; hit` (served without asking the
/// server), `APIKit; fwd=stale; fwd-status=304` (validated by the server) or
/// `APIKit; fwd=stale; fwd-status=503; detail=stale-if-error` (served stale because the server
/// failed; without `fwd-status` when it could not be reached), or `APIKit; fwd=miss; collapsed`
/// (an identical call's stored response; `fwd=stale; collapsed` when the stored copy was
/// stale). A session's ``Session/onCallEvent`` sees each `GET`'s and `HEAD`'s outcome as
/// ``CallEvent/Stage/cacheOutcome(_:)``: a hit, a miss (nothing usable stored, or the server
/// sent another response), a revalidation (a `304`), a stale response served on an error, one
/// served while it is revalidated, or a collapsed call's stored copy.
///
/// Responses are kept in memory by default (``MemoryCacheStore``); a ``DiskCacheStore`` keeps
/// them across launches, which lets an app show what it last saw while offline (with
/// `Cache-Control: max-stale` or `only-if-cached` on its requests).
///
/// **One cache.** Each `GET` the cache sends on has the `cachePolicy`
/// `.reloadIgnoringLocalCacheData`: a `URLSession` below it does not answer from its
/// `URLCache`, and ``URLSessionTransport`` declines to store the response there (on Apple
/// platforms such a request goes through the transport's delegate, which declines; corelibs
/// Foundation on Linux stores nothing in a `URLCache`). This cache alone decides what is reused.
///
/// Put the cache where it should answer in ``Session/interceptors``: before a
/// ``TrafficControl``, so that answers from memory wait for nothing.
///
/// **Streams and downloads pass by** (``RequestContext/bodyDelivery``): a stream's or a
/// download's `GET` or `HEAD` is sent on untouched — not answered, not validated, not stored —
/// unless the cache is made with `answersStreamsAndDownloads`; then a stored response answers
/// them like any call (a stream yields it as one chunk, a download writes it to its
/// destination), and their own responses, whose bodies the chain never holds, are still not
/// stored. Any method's invalidation applies to every kind of call.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(maxBytes: 20 * 1024 * 1024))
/// let api = Session(interceptors: [cache])
/// let user = try await UserRequest(id: 1).response(using: api)   // from the network
/// let again = try await UserRequest(id: 1).response(using: api)  // from memory, while fresh
/// ```
public final class HTTPCache: Interceptor {
    /// Where the responses are kept.
    let store: any HTTPCacheStore
    /// Whether identical `GET`s that go to the server at the same time send one request: see
    /// ``init(store:collapsesRequests:answersStreamsAndDownloads:)``.
    let collapsesRequests: Bool
    /// Whether stored responses answer streams and downloads too: see
    /// ``init(store:collapsesRequests:answersStreamsAndDownloads:)``.
    let answersStreamsAndDownloads: Bool
    /// The requests to the server that identical calls wait for, when `collapsesRequests`.
    let flights = Flights<String>()
    /// `store` when it hands over its records decoded (a ``MemoryCacheStore``): cast once,
    /// not on every look-up.
    let decoding: (any DecodingCacheStore)?
    /// What "now" is: the real time, unless a test drives it.
    let time: any TimeSource
    /// The background revalidations under way (`stale-while-revalidate`), one per stored
    /// response at most, each removing itself when it ends.
    let revalidations = Locked<[String: Task<Void, Never>]>([:])
    /// The exchanges that may write back to a record, for an invalidation to void their
    /// write-backs.
    let writes = RecordWrites()

    /// A cache keeping its responses in `store`.
    ///
    /// With `collapsesRequests`, a `GET` that must go to the server while an identical one is
    /// already waiting for it — same URL, same `Authorization` — waits for that call instead of
    /// sending its own request. When the first call's response has been stored, each waiting
    /// call is answered with the stored copy if its request selects it (the same values of the
    /// headers the response's `Vary` names) and may reuse it (its own `Cache-Control`); such an
    /// answer carries `Cache-Status: APIKit; fwd=miss; collapsed` (`fwd=stale` when the call
    /// found a stale copy first) and reports ``CallEvent/CacheOutcome/collapsed``. When the first call fails, is cancelled, or its
    /// response may not be stored, each waiting call sends its own request. Cancelling a
    /// waiting call ends that call only. Requests with `no-cache` or `no-store` never wait.
    ///
    /// A stream's or a download's `GET` passes by the cache unless `answersStreamsAndDownloads`:
    /// then what is stored answers it as it answers `response()` (a stream yields the stored body
    /// as one chunk, a download writes it to its destination) and a stale response is validated
    /// for it; its own response is never stored, its body being read after the chain returns.
    ///
    /// ```swift
    /// let collapsing = HTTPCache(collapsesRequests: true)
    /// let directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-cache")
    /// let offline = HTTPCache(store: DiskCacheStore(directory: directory), answersStreamsAndDownloads: true)
    /// ```
    ///
    /// - Parameters:
    ///   - store: Where the responses are kept; a 10 MiB ``MemoryCacheStore`` by default.
    ///   - collapsesRequests: Whether identical `GET`s going to the server at the same time
    ///     send one request; `false` by default.
    ///   - answersStreamsAndDownloads: Whether stored responses answer streams and downloads;
    ///     `false` by default: they go to the server.
    public convenience init(
        store: any HTTPCacheStore = MemoryCacheStore(), collapsesRequests: Bool = false,
        answersStreamsAndDownloads: Bool = false
    ) {
        self.init(
            store: store, time: SystemTime(), collapsesRequests: collapsesRequests,
            answersStreamsAndDownloads: answersStreamsAndDownloads)
    }

    /// A cache whose dates come from `time`: a test hook (see ``TimeSource``).
    ///
    /// - Parameters:
    ///   - store: Where the responses are kept.
    ///   - time: What the current date is read from.
    ///   - collapsesRequests: Whether identical `GET`s going to the server at the same time
    ///     send one request.
    ///   - answersStreamsAndDownloads: Whether stored responses answer streams and downloads.
    @_spi(Testing) public init(
        store: any HTTPCacheStore, time: any TimeSource, collapsesRequests: Bool = false,
        answersStreamsAndDownloads: Bool = false
    ) {
        self.store = store
        self.decoding = store as? any DecodingCacheStore
        self.time = time
        self.collapsesRequests = collapsesRequests
        self.answersStreamsAndDownloads = answersStreamsAndDownloads
    }

    /// Answers a `GET` or a `HEAD` from the store when it may, validates a stale response,
    /// stores what may be stored, freshens it after a `HEAD`, and invalidates after an unsafe
    /// method.
    ///
    /// - Parameters:
    ///   - urlRequest: The request.
    ///   - context: The call.
    ///   - next: The rest of the chain.
    /// - Returns: The stored response, or the response of `next`.
    /// - Throws: ``RequestError/notCached(context:)`` for a request with
    ///   `Cache-Control: only-if-cached` when nothing usable is stored; the error of `next`.
    public func intercept(
        _ urlRequest: URLRequest,
        context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        guard let url = urlRequest.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return try await next(urlRequest) }
        switch (urlRequest.httpMethod ?? "GET").uppercased() {
        case let method where method == "GET" || method == "HEAD":
            // a stream or a download it does not answer, and the caller's own conditional or
            // partial request, go to the server untouched
            guard answersStreamsAndDownloads || context.bodyDelivery == .whole,
                !RequestFields(urlRequest).hasConditional
            else { return try await next(Self.bypassingURLCache(urlRequest)) }
            return method == "GET"
                ? try await get(urlRequest, url: url, context: context, next: next)
                : try await head(urlRequest, url: url, context: context, next: next)
        case "OPTIONS", "TRACE":
            return try await next(urlRequest)
        default:
            let response = try await next(urlRequest)
            await invalidate(after: response, to: url)
            return response
        }
    }

    private func get(
        _ request: URLRequest, url: URL, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let directives = CacheControl(request: request)
        let key = CacheKey.record(method: "GET", url: url)
        let record = await load(key)
        // the credential's partition, made only when something is stored or calls may collapse
        let partition = record != nil || collapsesRequests ? CacheKey.partition(of: request) : []
        guard let stored = record.flatMap({ Self.select(from: $0, for: request, partition: partition) }) else {
            if directives.onlyIfCached {
                try? context.report(.cacheOutcome(.miss))
                throw RequestError.notCached(context: context.with(detached: nil))
            }
            return try await collapsing(request, key: key, partition: partition, directives, "fwd=miss", context) {
                try? context.report(.cacheOutcome(.miss))
                return try await fetch(request, key: key, directives: directives, next: next)
            }
        }
        let freshness = CacheFreshness(of: stored, now: time.now)
        if freshness.allowsReuse(for: directives) {
            try? context.report(.cacheOutcome(.hit))
            return served(stored, freshness: freshness, status: "hit")
        }
        if directives.onlyIfCached {
            try? context.report(.cacheOutcome(.miss))
            throw RequestError.notCached(context: context.with(detached: nil))
        }
        if freshness.allowsStaleWhileRevalidate(for: directives), let detached = context.detached {
            revalidateInBackground(stored, request: request, key: key, directives: directives, through: detached)
            try? context.report(.cacheOutcome(.staleWhileRevalidate))
            return served(stored, freshness: freshness, status: "hit", detail: "stale-while-revalidate")
        }
        return try await collapsing(request, key: key, partition: partition, directives, "fwd=stale", context) {
            try await forward(stale: stored, request, key: key, directives: directives, context: context, next: next)
        }
    }

    /// Validates the stale `stored` when it has a validator, else replaces it; either way, what
    /// the server says (or its failure) decides, and the outcome is reported once it is known.
    private func forward(
        stale stored: StoredResponse, _ request: URLRequest, key: String, directives: CacheControl,
        context: RequestContext, next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let conditional = Self.conditional(request, for: stored)
        let ticket = writes.begin(key)
        defer { writes.end(ticket) }
        let requestTime = time.now
        let response: CallResponse
        do {
            response = try await next(Self.bypassingURLCache(conditional ?? request))
        } catch {
            if let answer = staleIfError(stored, directives: directives, error: error, context: context) {
                return answer
            }
            try? context.report(.cacheOutcome(.miss))
            throw error
        }
        let responseTime = time.now
        if let answer = staleIfError(stored, directives: directives, response: response, context: context) {
            return answer
        }
        guard conditional != nil, let head = response.urlResponse as? HTTPURLResponse, head.statusCode == 304 else {
            // the stored response was not confirmed: the server sent another
            try? context.report(.cacheOutcome(.miss))
            await storeIfAllowed(
                response, for: request, key: key, directives: directives, requestTime: requestTime,
                responseTime: responseTime, ticket: ticket)
            return response
        }
        guard Self.validates(stored, head, for: request) else {
            // The 304 names another representation than the stored one, or another URL's: ask again.
            try? context.report(.cacheOutcome(.miss))
            return try await fetch(request, key: key, directives: directives, next: next)
        }
        let updated = Self.freshened(stored, with: head, requestTime: requestTime, responseTime: responseTime)
        await replace(stored, with: updated, key: key, ticket: ticket)
        try? context.report(.cacheOutcome(.revalidated))
        return served(
            updated, freshness: CacheFreshness(of: updated, now: responseTime), status: "fwd=stale; fwd-status=304")
    }

    /// `request` marked so that a `URLCache` below the cache neither answers nor stores it: its
    /// `cachePolicy` is `.reloadIgnoringLocalCacheData`, which keeps a `URLSession` from answering
    /// from its `URLCache`, and which ``URLSessionTransport``'s delegate reads to decline storing
    /// the response. One cache, not two: this one decides what is reused.
    static func bypassingURLCache(_ request: URLRequest) -> URLRequest {
        guard request.cachePolicy != .reloadIgnoringLocalCacheData else { return request }
        var marked = request
        marked.cachePolicy = .reloadIgnoringLocalCacheData
        return marked
    }

    /// The request headers that make a request the caller's own conditional or partial one.
    static let conditionalHeaders = [
        "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since",
        "If-Range", "Range",
    ]

    /// Sends `request` and stores its response when it may be stored.
    private func fetch(
        _ request: URLRequest, key: String, directives: CacheControl,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws(RequestError) -> CallResponse {
        let ticket = writes.begin(key)
        defer { writes.end(ticket) }
        let requestTime = time.now
        let response = try await next(Self.bypassingURLCache(request))
        await storeIfAllowed(
            response, for: request, key: key, directives: directives, requestTime: requestTime,
            responseTime: time.now, ticket: ticket)
        return response
    }

    /// The record under `key`; one that cannot be read is removed.
    func load(_ key: String) async -> StoredRecord? {
        guard let loaded = await StoredRecord.load(from: store, decoding: decoding, key: key) else { return nil }
        guard let record = loaded else {
            await store.removeRecord(forKey: key)
            return nil
        }
        return record
    }

    /// The variant `request` selects (§4.1): same credential, same values of the headers its
    /// `Vary` names; of several, the one received last.
    static func select(from record: StoredRecord, for request: URLRequest, partition: [UInt8]) -> StoredResponse? {
        record.variants.last { variant in
            variant.partition == partition
                && CacheKey.varyFingerprint(of: request, names: variant.varyNames) == variant.varyFingerprint
        }
    }

    /// The stored response as the call's response: its head with `Age` and `Cache-Status`
    /// (`status`, the `ttl` of a hit, then `detail` when given).
    func served(
        _ stored: StoredResponse, freshness: CacheFreshness, status: String, detail: String? = nil
    ) -> CallResponse {
        CallResponse(
            urlResponse: servedHead(stored, freshness: freshness, status: status, detail: detail),
            data: stored.responseBody)
    }

    /// The head of ``served(_:freshness:status:detail:)``: the stored head with `Age` and
    /// `Cache-Status`.
    func servedHead(
        _ stored: StoredResponse, freshness: CacheFreshness, status: String, detail: String? = nil
    ) -> HTTPURLResponse {
        // Int64: an age or a lifetime may pass 2^31 seconds, past a 32-bit Int (watchOS)
        let age = String(Int64(freshness.age.rounded(.down)))
        var marker = "APIKit; \(status)"
        if status == "hit" { marker += "; ttl=\(Int64((freshness.lifetime - freshness.age).rounded(.down)))" }
        if let detail { marker += "; detail=\(detail)" }
        return stored.servedHead(age: age, cacheStatus: marker) {
            var fields = stored.headerFields
            fields.setValue(age, forName: "Age")
            let existing = fields.value(forName: "Cache-Status")
            fields.setValue(existing.map { "\($0), \(marker)" } ?? marker, forName: "Cache-Status")
            let address = URL(string: stored.url) ?? URL(string: "http://invalid")!
            return HTTPURLResponse(
                url: address, statusCode: stored.status, httpVersion: "HTTP/1.1", headerFields: fields)!
        }
    }
}

extension [String: String] {
    /// The value of the field `name`, compared case-insensitively.
    func value(forName name: String) -> String? {
        first { FieldName.same($0.key, name) }?.value
    }

    /// Sets the field `name`, replacing any of the same name in another case.
    mutating func setValue(_ value: String, forName name: String) {
        for key in keys where FieldName.same(key, name) { self[key] = nil }
        self[name] = value
    }
}
