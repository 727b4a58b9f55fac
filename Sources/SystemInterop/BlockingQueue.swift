internal import Glibc

/// A first-in, first-out queue between two threads, of bounded length: `put` waits while it is
/// full, `take` waits while it is empty, and `close` ends it for both.
///
/// The hand-over between a thread that receives data and a `JoinableThread` that works on it:
/// the bound keeps memory flat when the worker falls behind (the receiver then waits), and
/// `close` is how the receiver says "no more" (or "stop") so the worker can end and be joined.
///
/// Wraps a `pthread_mutex_t` and two `pthread_cond_t`s, at fixed addresses this object owns and
/// destroys in `deinit` (the Swift `Mutex` has no condition to wait on).
public final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    // Safe: `items` and `isClosed` are read and written only with `mutex` locked; the mutex and
    // the conditions are allocated once, never move, and are destroyed in `deinit`, when no
    // thread can hold a reference any more.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let hasItems: UnsafeMutablePointer<pthread_cond_t>
    private let hasRoom: UnsafeMutablePointer<pthread_cond_t>
    private var items: [Element] = []
    private var isClosed = false
    /// The most elements held at once.
    public let capacity: Int

    /// Makes an empty, open queue holding at most `capacity` elements.
    public init(capacity: Int) {
        precondition(capacity > 0, "a queue needs room for one element")
        self.capacity = capacity
        mutex = .allocate(capacity: 1)
        hasItems = .allocate(capacity: 1)
        hasRoom = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(hasItems, nil)
        pthread_cond_init(hasRoom, nil)
        items.reserveCapacity(capacity)
    }

    deinit {
        pthread_cond_destroy(hasRoom)
        pthread_cond_destroy(hasItems)
        pthread_mutex_destroy(mutex)
        hasRoom.deallocate()
        hasItems.deallocate()
        mutex.deallocate()
    }

    /// Appends `element`, waiting while the queue is full.
    ///
    /// - Returns: false when the queue is closed (before or during the wait): the element is
    ///   dropped.
    @discardableResult
    public func put(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.count >= capacity && !isClosed { pthread_cond_wait(hasRoom, mutex) }
        guard !isClosed else { return false }
        items.append(element)
        pthread_cond_signal(hasItems)
        return true
    }

    /// Removes and returns the first element, waiting while the queue is empty and open.
    ///
    /// - Returns: nil once the queue is closed and every element put before was taken.
    public func take() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.isEmpty && !isClosed { pthread_cond_wait(hasItems, mutex) }
        guard !items.isEmpty else { return nil }
        let element = items.removeFirst()
        pthread_cond_signal(hasRoom)
        return element
    }

    /// Ends the queue: no more `put`s (waiting ones return false); `take` hands out what is
    /// left, then nil. Closing twice is harmless.
    public func close() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        isClosed = true
        pthread_cond_broadcast(hasItems)
        pthread_cond_broadcast(hasRoom)
    }

    /// Ends the queue and drops what it holds: for a receiver that gives up, so the worker
    /// stops at once instead of working through the rest.
    public func cancel() {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        isClosed = true
        items.removeAll()
        pthread_cond_broadcast(hasItems)
        pthread_cond_broadcast(hasRoom)
    }
}
