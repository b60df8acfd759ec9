extension HTTPCache {
    /// Starts validating `stored` in the background (`stale-while-revalidate`, RFC 5861 §3)
    /// unless a revalidation of it is already under way: the stale response answers the call at
    /// once, and what the server says updates the store for the calls after it.
    ///
    /// The call's `next` cannot do it: it belongs to the call and ends in the call's terminal
    /// stage (see ``DetachedChain``), so the revalidation is a call of its own through the links
    /// after the cache, in an unstructured task that may outlive the call. Cancelling the call
    /// does not cancel it; it ends with its transfer, holding the cache until then, and removes
    /// itself from ``revalidations``; its failure leaves the stored response as it was.
    func revalidateInBackground(
        _ stored: StoredResponse, request: URLRequest, key: String, directives: CacheControl,
        through detached: DetachedChain
    ) {
        let slot = "\(key) \(stored.partition) \(stored.varyFingerprint)"
        revalidations.withLock { tasks in
            guard tasks[slot] == nil else { return }
            // Made under the lock: the task cannot remove its slot before it is set.
            tasks[slot] = Task { [self] in
                await revalidate(stored, request: request, key: key, directives: directives, through: detached)
                _ = revalidations.withLock { $0.removeValue(forKey: slot) }
            }
        }
    }

    /// Waits until every background revalidation started so far, and any started meanwhile,
    /// has ended: how a test knows the store holds what they brought, without sleeping.
    func revalidationsFinished() async {
        while let task = revalidations.withLock({ $0.values.first }) {
            await task.value
        }
    }

    /// Validates `stored` (or, without a validator, fetches the resource anew) through
    /// `detached`: a `304` that speaks of it freshens it, another response is stored when it may
    /// be; a failure changes nothing.
    private func revalidate(
        _ stored: StoredResponse, request: URLRequest, key: String, directives: CacheControl,
        through detached: DetachedChain
    ) async {
        let conditional = Self.conditional(request, for: stored)
        let ticket = writes.begin(key)
        defer { writes.end(ticket) }
        let requestTime = time.now
        guard let response = try? await detached.send(Self.bypassingURLCache(conditional ?? request)) else { return }
        let responseTime = time.now
        let head = response.urlResponse as? HTTPURLResponse
        // the server failing, as for stale-if-error: the stale copy stays for the calls that follow
        guard !Self.serverErrorStatuses.contains(head?.statusCode ?? 0) else { return }
        if conditional != nil, let head, head.statusCode == 304 {
            guard Self.validates(stored, head, for: request) else { return }
            let updated = Self.freshened(stored, with: head, requestTime: requestTime, responseTime: responseTime)
            await replace(stored, with: updated, key: key, ticket: ticket)
            return
        }
        await storeIfAllowed(
            response, for: request, key: key, directives: directives, requestTime: requestTime,
            responseTime: responseTime, ticket: ticket)
    }
}
