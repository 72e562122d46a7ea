// SPDX-License-Identifier: MIT
// Box2D 2.4 (Debian's libbox2d-dev) running a bench::Scene: the same shapes, densities and
// coefficients, 8 velocity and 3 position iterations, sleeping and continuous collision off. Its
// solver phase is b2Profile's solveInit + solveVelocity + solvePosition. Built without Box2D 2.4,
// make_box2d24 returns null and the benchmark leaves it out.
#include "engine.hpp"

#if IMPULSE_BENCH_HAVE_BOX2D24
#include <box2d/box2d.h>

namespace {

class Box2D24 final : public bench::Engine {
public:
    explicit Box2D24(const bench::Scene& s) : world_(b2Vec2(0.0f, float(-s.gravity)))
    {
        world_.SetAllowSleeping(false);      // impulse has no sleeping: both solve every contact
        world_.SetContinuousPhysics(false);  // nor continuous collision
        world_.SetWarmStarting(true);
        b2BodyDef ground_def;
        b2Body* ground = world_.CreateBody(&ground_def);
        auto fixture = [&](b2Body* b, const b2Shape* shape, float density) {
            b2FixtureDef f;
            f.shape = shape;
            f.density = density;
            f.friction = float(s.friction);
            f.restitution = float(s.restitution);
            f.restitutionThreshold = float(s.threshold);
            b->CreateFixture(&f);
        };
        if (s.pit) {
            // Edges moved out by their skin b2_polygonRadius, so that they touch the balls where the
            // planes of impulse's box do (x = 0, x = width, y = 0).
            const float r = b2_polygonRadius, w = float(s.width), far = 1000.0f * w;
            auto edge = [&](b2Vec2 a, b2Vec2 b) {
                b2EdgeShape e;
                e.SetTwoSided(a, b);
                fixture(ground, &e, 0.0f);
            };
            edge(b2Vec2(-far, -r), b2Vec2(w + far, -r));
            edge(b2Vec2(-r, -r), b2Vec2(-r, far));
            edge(b2Vec2(w + r, -r), b2Vec2(w + r, far));
        } else {
            b2PolygonShape g;
            g.SetAsBox(100.0f, 1.0f, b2Vec2(0.0f, -1.0f), 0.0f);
            fixture(ground, &g, 0.0f);
        }
        for (const auto& ball : s.balls) {
            b2BodyDef bd;
            bd.type = b2_dynamicBody;
            bd.position.Set(float(ball.x), float(ball.y));
            b2Body* body = world_.CreateBody(&bd);
            b2CircleShape c;
            c.m_radius = float(ball.r);
            fixture(body, &c, float(s.density));
            bodies_.push_back(body);
        }
        for (const auto& box : s.boxes) {
            b2BodyDef bd;
            bd.type = b2_dynamicBody;
            bd.position.Set(float(box.x), float(box.y));
            b2Body* body = world_.CreateBody(&bd);
            b2PolygonShape p;
            p.SetAsBox(float(box.half), float(box.half));
            fixture(body, &p, float(s.density));
            bodies_.push_back(body);
        }
    }

    void settle(int steps) override
    {
        for (int i = 0; i < steps; ++i) world_.Step(dt, 8, 3);
    }

    bench::StepTime step() override
    {
        world_.Step(dt, 8, 3);
        bench::StepTime t;
        for (const b2Contact* c = world_.GetContactList(); c; c = c->GetNext())
            if (c->IsTouching()) t.points += std::size_t(c->GetManifold()->pointCount);
        const b2Profile& p = world_.GetProfile();
        t.seconds = double(p.solveInit + p.solveVelocity + p.solvePosition) / 1000.0;  // ms -> s
        return t;
    }

    void state(std::vector<double>& x, std::vector<double>& y, std::vector<double>& angle, std::vector<double>& vx,
               std::vector<double>& vy) const override
    {
        for (const b2Body* b : bodies_) {
            const b2Vec2 p = b->GetPosition(), v = b->GetLinearVelocity();
            x.push_back(p.x);
            y.push_back(p.y);
            angle.push_back(b->GetAngle());
            vx.push_back(v.x);
            vy.push_back(v.y);
        }
    }

private:
    static constexpr float dt = 1.0f / 60.0f;
    b2World world_;
    std::vector<b2Body*> bodies_;
};

}  // namespace

namespace bench {
std::unique_ptr<Engine> make_box2d24(const Scene& s) { return std::make_unique<Box2D24>(s); }
std::string box2d24_version() { return IMPULSE_BENCH_BOX2D24_VERSION; }
}  // namespace bench

#else

namespace bench {
std::unique_ptr<Engine> make_box2d24(const Scene&) { return nullptr; }
std::string box2d24_version() { return ""; }
}  // namespace bench

#endif
