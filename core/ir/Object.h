/// \file
/// Intrusive reference counting for immutable IR nodes.
///
/// Every IR in Tessel (TIR expressions and statements, TE operations, graph
/// nodes) is a tree or DAG of immutable nodes shared by pointer. A node is
/// created once through its checking `make()` and never changed afterwards,
/// so sharing is safe across threads; the count itself is atomic.
#pragma once

#include <atomic>
#include <cstddef>
#include <utility>

namespace tessel {

/// Base of every ref-counted node.
class Object {
public:
    Object() = default;
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;
    virtual ~Object() = default;

    void retain() const { refCount_.fetch_add(1, std::memory_order_relaxed); }
    void release() const {
        if (refCount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }
    int useCount() const { return refCount_.load(std::memory_order_relaxed); }

private:
    mutable std::atomic<int> refCount_{0};
};

/// A strong, nullable handle to an Object subclass.
template <class T> class Ref {
public:
    Ref() = default;
    Ref(std::nullptr_t) {}
    Ref(const T* p) : ptr_(p) {
        if (ptr_) ptr_->retain();
    }
    Ref(const Ref& o) : ptr_(o.ptr_) {
        if (ptr_) ptr_->retain();
    }
    Ref(Ref&& o) noexcept : ptr_(o.ptr_) { o.ptr_ = nullptr; }
    template <class U>
        requires std::is_base_of_v<T, U>
    Ref(const Ref<U>& o) : Ref(o.get()) {}
    ~Ref() {
        if (ptr_) ptr_->release();
    }
    Ref& operator=(Ref o) noexcept {
        std::swap(ptr_, o.ptr_);
        return *this;
    }

    const T* get() const { return ptr_; }
    const T* operator->() const { return ptr_; }
    const T& operator*() const { return *ptr_; }
    bool defined() const { return ptr_ != nullptr; }
    explicit operator bool() const { return ptr_ != nullptr; }
    bool sameAs(const Ref& o) const { return ptr_ == o.ptr_; }

    template <class U> const U* as() const { return dynamic_cast<const U*>(ptr_); }

private:
    const T* ptr_ = nullptr;
};

template <class T, class... Args> Ref<T> makeRef(Args&&... args) {
    return Ref<T>(new T(std::forward<Args>(args)...));
}

/// Pointer identity hashing, so handles can key unordered containers.
struct RefHash {
    template <class T> size_t operator()(const Ref<T>& r) const {
        return std::hash<const void*>()(r.get());
    }
};
struct RefEqual {
    template <class T> bool operator()(const Ref<T>& a, const Ref<T>& b) const {
        return a.get() == b.get();
    }
};

} // namespace tessel
