// SpscRing: edge cases on one thread, a corrupted header from a hostile peer, and two threads
// streaming millions of records (run under ThreadSanitizer too).
#include "engine/transport/spsc_ring.h"

#include <atomic>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "engine/transport/transport_test_util.h"
#include "gtest/gtest.h"

namespace shoal::transport {
namespace {

using testing::CheckFrame;
using testing::FrameSize;
using testing::kLoadDivisor;
using testing::MakeFrame;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// Heap memory for a ring of `capacity`, aligned as the ring wants.
struct Memory {
  explicit Memory(size_t capacity)
      : bytes(SpscRing::RequiredBytes(capacity)),
        mem(std::aligned_alloc(kRingLineSize, (bytes + kRingLineSize - 1) & ~(kRingLineSize - 1))) {
    std::memset(mem.get(), 0xAB, bytes);
  }
  RingHeader* header() { return static_cast<RingHeader*>(mem.get()); }
  uint8_t* data() { return static_cast<uint8_t*>(mem.get()) + SpscRing::kHeaderBytes; }
  size_t bytes;
  std::unique_ptr<void, FreeDeleter> mem;
};

std::string Record(size_t size, char c) { return std::string(size, c); }

TEST(SpscRingTest, InitChoosesPowerOfTwoCapacity) {
  Memory m(1024);
  auto ring = SpscRing::Init(m.mem.get(), m.bytes);
  ASSERT_TRUE(ring.ok()) << ring.status();
  EXPECT_EQ(ring->capacity(), 1024u);
  EXPECT_EQ(ring->max_record_size(), 508u);
  EXPECT_EQ(SpscRing::Init(m.mem.get(), m.bytes - 1)->capacity(), 512u);
  EXPECT_FALSE(SpscRing::Init(m.mem.get(), SpscRing::kHeaderBytes + 8).ok());
  EXPECT_FALSE(SpscRing::Init(static_cast<char*>(m.mem.get()) + 8, m.bytes - 8).ok());
}

TEST(SpscRingTest, PushFrontPop) {
  Memory m(1024);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  EXPECT_TRUE(consumer.Front().empty());
  ASSERT_TRUE(producer.TryPush("hello"));
  ASSERT_TRUE(producer.TryPush("world!"));
  EXPECT_EQ(consumer.Front(), "hello");
  EXPECT_EQ(consumer.Front(), "hello");  // Front is idempotent until Pop
  consumer.Pop();
  EXPECT_EQ(consumer.Front(), "world!");
  consumer.Pop();
  EXPECT_TRUE(consumer.Front().empty());
  EXPECT_FALSE(consumer.corrupted());
}

TEST(SpscRingTest, ReserveLimits) {
  Memory m(1024);
  SpscRing ring = *SpscRing::Init(m.mem.get(), m.bytes);
  EXPECT_EQ(ring.Reserve(0), nullptr);
  EXPECT_EQ(ring.Reserve(ring.max_record_size() + 1), nullptr);
  uint8_t* p = ring.Reserve(ring.max_record_size());
  ASSERT_NE(p, nullptr);
  std::memset(p, 'x', 10);
  ring.Commit(10);  // committing less than reserved
  EXPECT_EQ(ring.Front(), Record(10, 'x'));
}

TEST(SpscRingTest, ExactlyFull) {
  Memory m(1024);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  // 124 bytes + 4 of length = 128: eight fill the ring exactly.
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(producer.TryPush(Record(124, 'a' + i))) << i;
  EXPECT_FALSE(producer.TryPush("x"));
  EXPECT_EQ(consumer.Front(), Record(124, 'a'));
  consumer.Pop();
  EXPECT_FALSE(producer.TryPush(Record(125, 'z')));  // needs 136 bytes
  EXPECT_TRUE(producer.TryPush(Record(124, 'z')));
  for (int i = 1; i < 8; ++i) {
    EXPECT_EQ(consumer.Front(), Record(124, 'a' + i));
    consumer.Pop();
  }
  EXPECT_EQ(consumer.Front(), Record(124, 'z'));
}

TEST(SpscRingTest, PaddingSendsTheRecordToTheStart) {
  Memory m(1024);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(producer.TryPush(Record(300, 'a')));  // 3 x 304
  for (int i = 0; i < 3; ++i) {
    (void)consumer.Front();
    consumer.Pop();
  }
  // 112 bytes left before the end: a 200-byte record goes to offset 0 behind a marker.
  ASSERT_TRUE(producer.TryPush(Record(200, 'b')));
  uint32_t marker;
  std::memcpy(&marker, m.data() + 912, 4);
  EXPECT_EQ(marker, SpscRing::kPaddingMarker);
  EXPECT_EQ(m.header()->head.load(), 912u + 112 + 208);
  EXPECT_EQ(consumer.Front(), Record(200, 'b'));
  consumer.Pop();
  EXPECT_EQ(m.header()->tail.load(), 912u + 112 + 208);
  EXPECT_TRUE(consumer.Front().empty());
}

TEST(SpscRingTest, PaddingNeedsRoomForBoth) {
  Memory m(1024);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  ASSERT_TRUE(producer.TryPush(Record(396, 'a')));  // [0, 400)
  ASSERT_TRUE(producer.TryPush(Record(396, 'b')));  // [400, 800)
  (void)consumer.Front();
  consumer.Pop();  // free: [0, 400) and [800, 1024)
  // 300 bytes do not fit in the 224 at the end; at the start they fit, after the padding.
  ASSERT_TRUE(producer.TryPush(Record(300, 'c')));
  // Now only [304, 400) is free: 100 bytes do not fit, 90 do.
  EXPECT_FALSE(producer.TryPush(Record(100, 'd')));
  EXPECT_TRUE(producer.TryPush(Record(90, 'd')));
  for (char c : {'b', 'c', 'd'}) {
    absl::string_view front = consumer.Front();
    ASSERT_FALSE(front.empty());
    EXPECT_EQ(front[0], c);
    consumer.Pop();
  }
  // A record of max size always fits once the ring is empty, wherever the positions are.
  EXPECT_TRUE(producer.TryPush(Record(producer.max_record_size(), 'e')));
}

// One thread, random sizes, checked against a model queue over many wraps.
TEST(SpscRingTest, VaryingSizesAgainstModel) {
  Memory m(4096);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  std::mt19937_64 rng(42);
  std::deque<std::string> model;
  uint64_t seq = 0;
  for (int step = 0; step < 200000 / kLoadDivisor; ++step) {
    if (rng() % 2 == 0) {
      size_t size = 12 + rng() % (producer.max_record_size() - 11);
      std::string record = MakeFrame(size, seq);
      bool pushed = producer.TryPush(record);
      size_t used = m.header()->head.load() - m.header()->tail.load();
      if (pushed) {
        model.push_back(record);
        ++seq;
      } else {
        ASSERT_GT(used + ((size + 4 + 7) & ~7), 4096u / 2) << "refused with the ring half empty";
      }
    } else if (!model.empty()) {
      ASSERT_EQ(consumer.Front(), model.front());
      consumer.Pop();
      model.pop_front();
    } else {
      ASSERT_TRUE(consumer.Front().empty());
    }
  }
  EXPECT_FALSE(consumer.corrupted() || producer.corrupted());
}

TEST(SpscRingTest, AttachValidatesTheHeader) {
  Memory m(1024);
  ASSERT_TRUE(SpscRing::Init(m.mem.get(), m.bytes).ok());
  EXPECT_TRUE(SpscRing::Attach(m.mem.get(), m.bytes).ok());
  EXPECT_FALSE(SpscRing::Attach(m.mem.get(), m.bytes - 1).ok());  // capacity does not fit
  m.header()->capacity = 1000;
  EXPECT_FALSE(SpscRing::Attach(m.mem.get(), m.bytes).ok());
  m.header()->capacity = 1024;
  m.header()->head.store(2048);
  EXPECT_FALSE(SpscRing::Attach(m.mem.get(), m.bytes).ok());
  m.header()->head.store(8);
  m.header()->tail.store(16);
  EXPECT_FALSE(SpscRing::Attach(m.mem.get(), m.bytes).ok());
  m.header()->tail.store(8);
  EXPECT_TRUE(SpscRing::Attach(m.mem.get(), m.bytes).ok());
  m.header()->magic = 0;
  EXPECT_FALSE(SpscRing::Attach(m.mem.get(), m.bytes).ok());
}

// The consumer detects a producer that breaks the invariants, and reports no record.
TEST(SpscRingTest, CorruptedPositionsDetectedByConsumer) {
  struct Case {
    const char* name;
    void (*corrupt)(Memory& m);
  };
  const Case cases[] = {
      {"head beyond capacity", [](Memory& m) { m.header()->head.store(1024 + 8); }},
      {"head misaligned", [](Memory& m) { m.header()->head.store(3); }},
      {"length beyond capacity",
       [](Memory& m) {
         m.header()->head.store(16);
         uint32_t length = 0x7FFFFFF0;
         std::memcpy(m.data(), &length, 4);
       }},
      {"length beyond head",
       [](Memory& m) {
         m.header()->head.store(16);
         uint32_t length = 100;
         std::memcpy(m.data(), &length, 4);
       }},
      {"length zero",
       [](Memory& m) {
         m.header()->head.store(16);
         uint32_t length = 0;
         std::memcpy(m.data(), &length, 4);
       }},
      {"padding beyond head",
       [](Memory& m) {
         m.header()->head.store(16);
         std::memcpy(m.data(), &SpscRing::kPaddingMarker, 4);
       }},
  };
  for (const Case& c : cases) {
    Memory m(1024);
    ASSERT_TRUE(SpscRing::Init(m.mem.get(), m.bytes).ok());
    SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
    c.corrupt(m);
    EXPECT_TRUE(consumer.Front().empty()) << c.name;
    EXPECT_TRUE(consumer.corrupted()) << c.name;
    EXPECT_FALSE(consumer.PrepareSleep()) << c.name;
  }
}

TEST(SpscRingTest, HeadMovingBackwardsDetected) {
  Memory m(1024);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  ASSERT_TRUE(producer.TryPush("abc"));
  (void)consumer.Front();
  consumer.Pop();
  m.header()->head.store(0);
  EXPECT_TRUE(consumer.Front().empty());
  EXPECT_TRUE(consumer.corrupted());
}

TEST(SpscRingTest, CorruptedTailDetectedByProducer) {
  Memory m(1024);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  ASSERT_TRUE(producer.TryPush(Record(500, 'a')));
  ASSERT_TRUE(producer.TryPush(Record(500, 'b')));
  m.header()->tail.store(4096);  // past what was ever written
  EXPECT_EQ(producer.Reserve(100), nullptr);
  EXPECT_TRUE(producer.corrupted());
}

// Random garbage in the header and the data: the consumer never reads outside the ring.
TEST(SpscRingTest, GarbageNeverCrashes) {
  std::mt19937_64 rng(7);
  Memory m(256);
  for (int round = 0; round < 20000 / kLoadDivisor; ++round) {
    ASSERT_TRUE(SpscRing::Init(m.mem.get(), m.bytes).ok());
    SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
    for (size_t i = 0; i < 256; i += 8) {
      uint64_t v = rng();
      if (v % 3 == 0) v = (v >> 32) % 300;
      std::memcpy(m.data() + i, &v, 8);
    }
    m.header()->head.store(rng() % 4 == 0 ? rng() : (rng() % 40) * 8);
    for (int i = 0; i < 8; ++i) {
      absl::string_view front = consumer.Front();
      if (front.empty()) break;
      ASSERT_GE(reinterpret_cast<const uint8_t*>(front.data()), m.data());
      ASSERT_LE(reinterpret_cast<const uint8_t*>(front.data() + front.size()), m.data() + 256);
      consumer.Pop();
    }
  }
}

// Two threads, millions of variable-length records, spinning when full or empty.
TEST(SpscRingTest, TwoThreadStream) {
  const uint64_t kRecords = 3'000'000 / kLoadDivisor;
  Memory m(64 << 10);
  SpscRing producer = *SpscRing::Init(m.mem.get(), m.bytes);
  SpscRing consumer = *SpscRing::Attach(m.mem.get(), m.bytes);
  std::thread writer([&] {
    for (uint64_t seq = 0; seq < kRecords; ++seq) {
      size_t size = FrameSize(seq, 3000);
      uint8_t* p;
      while ((p = producer.Reserve(size)) == nullptr) std::this_thread::yield();
      std::string frame = MakeFrame(size, seq);
      std::memcpy(p, frame.data(), size);
      producer.Commit(size);
    }
  });
  uint64_t bad = 0;
  for (uint64_t seq = 0; seq < kRecords && !consumer.corrupted(); ++seq) {
    absl::string_view front;
    while ((front = consumer.Front()).empty() && !consumer.corrupted()) std::this_thread::yield();
    if (front.empty()) break;
    if (front.size() != FrameSize(seq, 3000) || !CheckFrame(front, seq)) ++bad;
    consumer.Pop();
  }
  if (consumer.corrupted()) std::abort();  // the writer would wait forever
  writer.join();
  EXPECT_EQ(bad, 0u);
  EXPECT_TRUE(consumer.Front().empty());
}

}  // namespace
}  // namespace shoal::transport
