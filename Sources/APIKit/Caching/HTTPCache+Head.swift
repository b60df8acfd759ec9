extension HTTPCache {
    /// Answers a `HEAD` with the head of the stored `GET` response it selects while that may be
    /// reused (RFC 9111 §4: a `HEAD`'s response is a `GET`'s without the content), else sends it
    /// on and lets a `200` freshen what is stored (§4.3.5). A `HEAD`'s response is never stored:
    /// it has no body to answer a `GET` with.
    ///
    func head(
        _ request: URLRequest, url: URL, context: RequestContext,
        next: @Sendable (URLRequest) async throws(RequestError) -> CallResponse
    ) async throws -> CallResponse {
        let directives = CacheControl(request: request)
        let key = CacheKey.record(method: "GET", url: url)
        let partition = CacheKey.partition(of: request)
        if let record = await load(key), let stored = Self.select(from: record, for: request, partition: partition) {
            let freshness = CacheFreshness(of: stored, now: time.now)
            if freshness.allowsReuse(for: directives) {
                try? context.report(.cacheOutcome(.hit))
                return CallResponse(urlResponse: servedHead(stored, freshness: freshness, status: "hit"), data: Data())
            }
        }
        try? context.report(.cacheOutcome(.miss))
        if directives.onlyIfCached { throw RequestError.notCached(context: context.with(detached: nil)) }
        let ticket = writes.begin(key)
        defer { writes.end(ticket) }
        let requestTime = time.now
        let response = try await next(Self.bypassingURLCache(request))
        await freshen(
            key: key, for: request, partition: partition, with: response, requestTime: requestTime, ticket: ticket)
        return response
    }

    /// Updates, after a `200` to a `HEAD`, each stored `GET` response of `key` the request
    /// selects (§4.3.5): one whose validators and length agree with the `HEAD`'s takes its
    /// header fields and starts its age again, as after a `304` (§3.2); one that disagrees — the
    /// resource changed — is removed, so that the next `GET` asks the server. A `200` from
    /// another URL (a redirect the transport followed) changes nothing, nor does one whose
    /// exchange an invalidation of `key` overlapped (`ticket`, see ``RecordWrites``).
    private func freshen(
        key: String, for request: URLRequest, partition: [UInt8], with response: CallResponse, requestTime: Date,
        ticket: RecordWrites.Ticket
    ) async {
        guard let head = response.urlResponse as? HTTPURLResponse, head.statusCode == 200,
            CacheKey.isSameTarget(head.url, as: request.url), var record = await load(key)
        else { return }
        let responseTime = time.now
        var touched = false
        record.variants = record.variants.compactMap { variant in
            guard variant.partition == partition,
                CacheKey.varyFingerprint(of: request, names: variant.varyNames) == variant.varyFingerprint
            else { return variant }
            touched = true
            guard Self.headAgrees(with: variant, head) else { return nil }
            return Self.freshened(variant, with: head, requestTime: requestTime, responseTime: responseTime)
        }
        guard touched else { return }
        if record.variants.isEmpty {
            // as an invalidation: a write-back under way would bring back what the HEAD found changed
            await invalidateRecord(key)
        } else {
            await write(record, key: key, ticket: ticket)
        }
    }

    /// Whether a `HEAD`'s response describes `stored` (§4.3.5): each validator it carries
    /// (`ETag`, `Last-Modified`) is the stored one's, and its `Content-Length`, when it has one,
    /// is the stored response's (its header's, else its body's length).
    static func headAgrees(with stored: StoredResponse, _ head: HTTPURLResponse) -> Bool {
        for name in ["ETag", "Last-Modified"] {
            guard let received = head.value(forHTTPHeaderField: name) else { continue }
            guard let kept = stored.header(name), trimmed(kept) == trimmed(received) else { return false }
        }
        guard let length = head.value(forHTTPHeaderField: "Content-Length").flatMap({ Int(trimmed($0)) }) else {
            return true
        }
        return length == (stored.header("Content-Length").flatMap { Int(trimmed($0)) } ?? stored.body.count)
    }

    /// `value` without the whitespace around it.
    private static func trimmed(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespaces)
    }
}
