// A lazily started C++20 coroutine that returns a T and can be awaited by another Task, so the
// distributed algorithms read like the papers' pseudo-code while a Transport decides whether an
// exchange blocks (MPI) or suspends until the simulator delivers (in-process processes).
#pragma once

#include <coroutine>
#include <exception>
#include <optional>
#include <utility>

namespace nbrcomb::detail {

template <class T>
class Task {
public:
    struct promise_type {
        std::optional<T> value;
        std::exception_ptr failure;
        std::coroutine_handle<> continuation = std::noop_coroutine();

        Task get_return_object() { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
        std::suspend_always initial_suspend() noexcept { return {}; }
        auto final_suspend() noexcept {
            struct ResumeAwaiter {
                bool await_ready() noexcept { return false; }
                std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> done) noexcept {
                    return done.promise().continuation;
                }
                void await_resume() noexcept {}
            };
            return ResumeAwaiter{};
        }
        void return_value(T result) { value = std::move(result); }
        void unhandled_exception() { failure = std::current_exception(); }
    };

    Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    Task& operator=(Task&& other) noexcept {
        if (this != &other) {
            destroy();
            handle_ = std::exchange(other.handle_, {});
        }
        return *this;
    }
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;
    ~Task() { destroy(); }

    // Awaiting a Task runs it and resumes the awaiter when it finishes.
    bool await_ready() const noexcept { return false; }
    std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
        handle_.promise().continuation = awaiter;
        return handle_;
    }
    T await_resume() { return take(); }

    // For a driver: start (or continue) the coroutine from outside any other coroutine.
    void start() { handle_.resume(); }
    bool done() const { return handle_.done(); }
    T take() {
        if (handle_.promise().failure) std::rethrow_exception(handle_.promise().failure);
        return std::move(*handle_.promise().value);
    }

private:
    explicit Task(std::coroutine_handle<promise_type> handle) : handle_(handle) {}
    void destroy() {
        if (handle_) handle_.destroy();
    }
    std::coroutine_handle<promise_type> handle_;
};

}  // namespace nbrcomb::detail
